import type { DependencyHealthEntry } from '@corekit/abstractions';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { shownUrl } from '../api';
import { HistoryStrip } from '../components/history-strip';
import { HealthBadge, StateBadge } from '../components/state-badge';
import { VirtualList } from '../components/virtual-list';
import { consoleStore, type ConsoleState } from '../console-store';
import {
  countsText,
  filterListing,
  listDependencies,
  rank,
  type DependencyListing,
  type ShownEntry,
} from '../dependency-order';
import type { ShownState } from '../dependency-status';
import { clockText, durationText, spanText, timeText, utcText } from '../format';
import { TimeAgo } from '../components/time-ago';
import { href } from '../router';
import { serviceStatus } from '../instances-status';
import { useInstances } from './instances';
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

/** The service across its instances (replica presence): status and how many are online, linked to the view. */
function InstancesCard({ state, stale }: { readonly state: ConsoleState; readonly stale: boolean }) {
  const { entries } = useInstances(state);
  const status = entries ? serviceStatus(entries) : null;
  return (
    <Card name="instances" label="Service instances" stale={stale}>
      {status ? (
        <>
          <HealthBadge status={status.status} stale={stale} />
          <a class="card-note" href={href('instances')} data-fact="instances-summary">
            {status.text}
          </a>
        </>
      ) : (
        'not read yet'
      )}
    </Card>
  );
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
      <InstancesCard state={state} stale={stale} />
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

/**
 * The User Timing mark set once, after the first paint of the list with the loaded dependencies: what the scale
 * test reads as "first render" (`performance.getEntriesByName('console:dependencies-rendered')`). Its `detail`
 * holds the number of elements in the document at that moment (the list is virtualised: a bounded number).
 */
export const firstRenderMark = 'console:dependencies-rendered';
let firstRenderMarked = false;

/**
 * The listing of the overview, recomputed when the entries, the since-states or the host's answering change, or
 * when the clock passes the first staleness bound ahead; the per-second tick otherwise reuses it.
 */
function useListing(state: ConsoleState, now: number): DependencyListing {
  const answering = state.connection !== 'lost';
  const cache = useRef<{
    readonly inputs: readonly unknown[];
    readonly listing: DependencyListing;
  } | null>(null);
  const inputs = [state.dependencies, state.since, answering];
  const last = cache.current;
  if (
    !last ||
    last.inputs.some((input, index) => input !== inputs[index]) ||
    now > last.listing.validUntilMs
  ) {
    cache.current = { inputs, listing: listDependencies(state.dependencies, state.since, now, answering) };
  }
  return cache.current!.listing;
}

const rowHeight = 44;
const expandedHeight = 168;

function SinceCell({ item, now }: { readonly item: ShownEntry; readonly now: number }) {
  if (!item.sinceUtc || rank[item.shown] > 1) return <span class="since" />;
  const verb = item.shown === 'degraded' ? 'degraded' : 'failing';
  return (
    <span class="since" data-fact="since">
      {verb} since{' '}
      <time dateTime={item.sinceUtc} title={`${timeText(item.sinceUtc)} (${utcText(item.sinceUtc)})`}>
        {clockText(item.sinceUtc)}
      </time>{' '}
      <span class="muted">({spanText(Date.parse(item.sinceUtc), now)})</span>
    </span>
  );
}

/** The reason in one line: the error for a failure, the check's description for a degraded result. */
function reasonOf(entry: DependencyHealthEntry, shown: ShownState): string {
  if (entry.error) return `${entry.error.code}: ${entry.error.message}`;
  if (shown === 'degraded') return entry.description ? `Reason: ${entry.description}` : 'No reason given';
  return '';
}

function DependencyRow({
  item,
  state,
  now,
  expanded,
  onToggle,
}: {
  readonly item: ShownEntry;
  readonly state: ConsoleState;
  readonly now: number;
  readonly expanded: boolean;
  readonly onToggle: () => void;
}) {
  const { entry, shown } = item;
  const reason = reasonOf(entry, shown);
  return (
    <div class={`dependency-row${expanded ? ' expanded' : ''}`} data-dependency={entry.id} data-state={shown}>
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
      <SinceCell item={item} now={now} />
      <HistoryStrip samples={state.strips[entry.id] ?? []} label={`${entry.displayName} history`} />
      <span class="reason-cell">
        {reason ? (
          <button
            type="button"
            class="reason-toggle"
            aria-expanded={expanded}
            aria-controls={`reason-${entry.id}`}
            onClick={onToggle}
          >
            {expanded ? 'Hide' : 'Show'}{' '}
            <span class="visually-hidden">the full reason of {entry.displayName}</span>
          </button>
        ) : null}
        <span
          class={shown === 'degraded' ? 'reason-text degraded-text' : 'reason-text error-text'}
          data-fact="reason"
        >
          {reason}
        </span>
      </span>
      {expanded ? (
        <div class="reason-full" id={`reason-${entry.id}`} data-fact="full-reason">
          {reason}
          {entry.error && entry.description ? <p class="muted">{entry.description}</p> : null}
          {entry.consecutiveFailures > 0 ? (
            <p class="muted">{entry.consecutiveFailures} consecutive failed checks</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function OverviewView({ state, now }: { readonly state: ConsoleState; readonly now: number }) {
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState<'incidents' | 'name'>('incidents');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const listing = useListing(state, now);
  const items = useMemo(
    () => filterListing(order === 'incidents' ? listing.incidentsFirst : listing.byName, filter),
    [listing, order, filter],
  );
  const loaded = state.dependencies.length > 0;
  useEffect(() => {
    if (!loaded) return;
    if (!firstRenderMarked) {
      firstRenderMarked = true;
      performance.mark(firstRenderMark, { detail: { elements: document.getElementsByTagName('*').length } });
    }
    // The history strips (the largest read, about 3 MB for 1,000 checks) are asked for once the rows are painted.
    consoleStore.wantStrips();
  }, [loaded]);
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <section aria-labelledby="overview-heading">
      <ViewHeading focusKey="overview">
        <span id="overview-heading">Overview</span>
      </ViewHeading>
      <RuntimeSummary state={state} />
      <h3>Dependencies ({state.dependencies.length})</h3>
      <p class="counts" data-counts>
        {countsText(listing.all)}
      </p>
      <p class="links">
        JSON: <a href="dependencies">{shownUrl('dependencies')}</a> ·{' '}
        <a href="status">{shownUrl('status')}</a> ·{' '}
        <a href="../health/ready">{shownUrl('../health/ready')}</a>
      </p>
      <div class="filters">
        <label class="filter">
          Filter dependencies{' '}
          <input type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} />
        </label>
        <label class="filter">
          Order{' '}
          <select
            value={order}
            onChange={(event) => setOrder(event.currentTarget.value === 'name' ? 'name' : 'incidents')}
          >
            <option value="incidents">incidents first</option>
            <option value="name">by name</option>
          </select>
        </label>
      </div>
      <div class="dependency-header" aria-hidden="true">
        <span>State</span>
        <span>Dependency</span>
        <span>Required</span>
        <span>Last duration</span>
        <span>Age</span>
        <span>Since</span>
        <span>Recent checks</span>
        <span>Error or reason</span>
      </div>
      {items.length === 0 ? (
        <p>
          {state.dependencies.length === 0
            ? 'No dependency is registered.'
            : 'No dependency matches the filter.'}
        </p>
      ) : (
        <VirtualList
          items={items}
          rowHeight={rowHeight}
          itemHeight={(item) => (expanded.has(item.entry.id) ? expandedHeight : rowHeight)}
          height={528}
          label="Dependencies"
          itemKey={(item) => item.entry.id}
          renderItem={(item) => (
            <DependencyRow
              item={item}
              state={state}
              now={now}
              expanded={expanded.has(item.entry.id)}
              onToggle={() => toggle(item.entry.id)}
            />
          )}
        />
      )}
    </section>
  );
}
