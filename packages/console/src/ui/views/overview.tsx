import type { DependencyHealthEntry } from '@corekit/abstractions';
import { useState } from 'preact/hooks';
import { shownUrl } from '../api';
import { HistoryStrip } from '../components/history-strip';
import { HealthBadge, StateBadge } from '../components/state-badge';
import { VirtualList } from '../components/virtual-list';
import type { ConsoleState } from '../console-store';
import { shownState } from '../dependency-status';
import { ageText, durationText, timeText } from '../format';
import { href } from '../router';
import { ViewHeading } from './view-heading';

function RuntimeSummary({ state }: { readonly state: ConsoleState }) {
  const status = state.status;
  if (!status) return <p>Loading the runtime status…</p>;
  return (
    <dl class="summary">
      <div>
        <dt>Runtime</dt>
        <dd>{status.state}</dd>
      </div>
      <div>
        <dt>Liveness</dt>
        <dd>
          <HealthBadge status={state.connection === 'lost' ? null : status.liveness} />
        </dd>
      </div>
      <div>
        <dt>Readiness</dt>
        <dd>
          <HealthBadge status={state.connection === 'lost' ? null : status.readiness} />
        </dd>
      </div>
      <div>
        <dt>Failure-policy window</dt>
        <dd>
          {status.activeWindow
            ? `${status.activeWindow} until ${timeText(status.activeWindowEndsAtUtc)}`
            : 'none in effect'}
        </dd>
      </div>
      {status.restartAvailableAtUtc ? (
        <div>
          <dt>Restart available</dt>
          <dd>{timeText(status.restartAvailableAtUtc)}</dd>
        </div>
      ) : null}
      {status.lastFailure ? (
        <div>
          <dt>Last failure</dt>
          <dd>
            {status.lastFailure.code}: {status.lastFailure.message}
          </dd>
        </div>
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
        {entry.checkedAtUtc ? `checked ${ageText(Date.parse(entry.checkedAtUtc), now)}` : 'not checked yet'}
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
