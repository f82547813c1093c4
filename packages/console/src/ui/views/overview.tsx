import type { DependencyHealthEntry } from '@corekit/abstractions';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { shownUrl } from '../api';
import { HistoryStrip } from '../components/history-strip';
import { HealthBadge, StateBadge } from '../components/state-badge';
import { VirtualList } from '../components/virtual-list';
import type { ConsoleState } from '../console-store';
import { shownState } from '../dependency-status';
import { durationText, timeText } from '../format';
import { TimeAgo } from '../components/time-ago';
import { href } from '../router';
import { ViewHeading } from './view-heading';

/** One card of the runtime summary; `stale` while the host is not answering (last known value, marked). */
function Card({
  name,
  label,
  stale,
  children,
}: {
  readonly name: string;
  readonly label: string;
  readonly stale: boolean;
  readonly children: ComponentChildren;
}) {
  return (
    <div class="card" data-card={name} data-stale={stale ? 'true' : 'false'}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** What `/health/live` answers for a liveness status: Healthy and Degraded 200, Unhealthy 503. */
export function livenessAnswer(status: string): string {
  return status === 'Unhealthy' ? '503' : '200';
}

function RuntimeSummary({ state }: { readonly state: ConsoleState }) {
  const status = state.status;
  if (!status) return <p>Loading the runtime status…</p>;
  const stale = state.connection === 'lost';
  return (
    <dl class="summary">
      <Card name="runtime" label="Runtime" stale={stale}>
        {stale ? `Stale (last: ${status.state})` : status.state}
      </Card>
      <Card name="liveness" label="Liveness (/health/live)" stale={stale}>
        <HealthBadge status={status.liveness} stale={stale} />
        <span class="card-note" data-fact="liveness-answer">
          {stale
            ? 'no answer now'
            : `answers ${livenessAnswer(status.liveness)}${status.liveness === 'Degraded' ? ': the process is alive (Degraded still answers 200)' : ''}`}
        </span>
      </Card>
      <Card name="readiness" label="Readiness (/health/ready)" stale={stale}>
        <HealthBadge status={status.readiness} stale={stale} />
        <span class="card-note" data-fact="readiness-answer">
          {stale ? 'no answer now' : `answers ${livenessAnswer(status.readiness)}`}
        </span>
      </Card>
      <Card name="failure-window" label="Failure-policy window" stale={stale}>
        {status.activeWindow
          ? `${status.activeWindow} until ${timeText(status.activeWindowEndsAtUtc)}`
          : 'none in effect'}
      </Card>
      {status.restartAvailableAtUtc ? (
        <Card name="restart" label="Restart available" stale={stale}>
          {timeText(status.restartAvailableAtUtc)}
        </Card>
      ) : null}
      {status.lastFailure ? (
        <Card name="last-failure" label="Last failure" stale={stale}>
          {status.lastFailure.code}: {status.lastFailure.message}
        </Card>
      ) : null}
    </dl>
  );
}

function DependencyRow({
  entry,
  state,
  now,
}: {
  readonly entry: DependencyHealthEntry;
  readonly state: ConsoleState;
  readonly now: number;
}) {
  const shown = shownState(entry, now, state.connection !== 'lost');
  return (
    <div class="dependency-row" data-dependency={entry.id} data-state={shown}>
      <StateBadge state={shown} />
      <a class="dependency-name" href={href('dependencies', entry.id)}>
        {entry.displayName}
      </a>
      <span class="muted">{entry.required ? 'required' : 'optional'}</span>
      <span>{durationText(entry.durationMs)}</span>
      <span class="age">
        {entry.checkedAtUtc ? (
          <TimeAgo iso={entry.checkedAtUtc} now={now} prefix="checked " />
        ) : (
          'not checked yet'
        )}
      </span>
      <HistoryStrip samples={state.strips[entry.id] ?? []} label={`${entry.displayName} history`} />
      <span class="error-text">{entry.error ? `${entry.error.code}: ${entry.error.message}` : ''}</span>
    </div>
  );
}

export function OverviewView({ state, now }: { readonly state: ConsoleState; readonly now: number }) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const entries = needle
    ? state.dependencies.filter((entry) =>
        `${entry.id} ${entry.displayName} ${entry.kind} ${shownState(entry, now, state.connection !== 'lost')}`
          .toLowerCase()
          .includes(needle),
      )
    : state.dependencies;
  return (
    <section aria-labelledby="overview-heading">
      <ViewHeading focusKey="overview">
        <span id="overview-heading">Overview</span>
      </ViewHeading>
      <RuntimeSummary state={state} />
      <h3>Dependencies ({state.dependencies.length})</h3>
      <p class="links">
        JSON: <a href="dependencies">{shownUrl('dependencies')}</a> ·{' '}
        <a href="status">{shownUrl('status')}</a> ·{' '}
        <a href="../health/ready">{shownUrl('../health/ready')}</a>
      </p>
      <label class="filter">
        Filter dependencies{' '}
        <input type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} />
      </label>
      <div class="dependency-header" aria-hidden="true">
        <span>State</span>
        <span>Dependency</span>
        <span>Required</span>
        <span>Last duration</span>
        <span>Age</span>
        <span>Recent checks</span>
        <span>Error</span>
      </div>
      {entries.length === 0 ? (
        <p>
          {state.dependencies.length === 0
            ? 'No dependency is registered.'
            : 'No dependency matches the filter.'}
        </p>
      ) : (
        <VirtualList
          items={entries}
          rowHeight={44}
          height={528}
          label="Dependencies"
          itemKey={(entry) => entry.id}
          renderItem={(entry) => <DependencyRow entry={entry} state={state} now={now} />}
        />
      )}
    </section>
  );
}
