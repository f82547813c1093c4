import type { InstanceEntry, RuntimeStoryEntry } from '@corekit/abstractions';
import { useEffect, useState } from 'preact/hooks';
import { getJson, shownUrl } from '../api';
import { Icon } from '../components/icon';
import { HealthBadge } from '../components/state-badge';
import { TimeAgo } from '../components/time-ago';
import type { ConsoleState } from '../console-store';
import type { ShownState } from '../dependency-status';
import { timeText, utcText } from '../format';
import { serviceStatus } from '../instances-status';
import { href } from '../router';
import { ViewHeading } from './view-heading';

/** The instances of this service as `/engine/instances` lists them (the engine's replica presence). */
export interface InstancesRead {
  readonly entries: readonly InstanceEntry[] | null;
  readonly error: string | null;
}

const instanceChanges = (story: readonly RuntimeStoryEntry[]) =>
  story.filter((entry) => entry.kind === 'engine.instance');

/**
 * Reads `/engine/instances` when shown, again whenever the story records an instance change (pushed: online,
 * offline, stopped, removed), and once per heartbeat interval while shown, so "last heartbeat" stays true.
 */
export function useInstances(state: ConsoleState): InstancesRead {
  const [read, setRead] = useState<InstancesRead>({ entries: null, error: null });
  const changes = instanceChanges(state.story).length;
  const intervalMs = Math.max(
    1000,
    read.entries?.find((entry) => entry.current)?.heartbeatIntervalMs ?? 5000,
  );
  useEffect(() => {
    let current = true;
    const load = () =>
      getJson<InstanceEntry[]>('instances')
        .then((entries) => current && setRead({ entries, error: null }))
        .catch((error: Error) => current && setRead((last) => ({ ...last, error: error.message })));
    void load();
    const timer = setInterval(load, intervalMs);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [changes, intervalMs]);
  return read;
}

const presenceState: Readonly<Record<InstanceEntry['presence'], ShownState>> = {
  online: 'healthy',
  offline: 'failed',
  stopped: 'unknown',
};

function PresenceBadge({ presence }: { readonly presence: InstanceEntry['presence'] }) {
  return (
    <span class={`badge badge-${presenceState[presence]}`} data-fact="presence">
      <Icon name={presenceState[presence]} /> {presence}
    </span>
  );
}

/** The service's status across its instances: a sentence with a badge (the overview shows it as a card too). */
export function ServiceStatusLine({ entries }: { readonly entries: readonly InstanceEntry[] }) {
  const status = serviceStatus(entries);
  return (
    <p class="service-status" data-service-status={status.status}>
      Service <strong>{status.serviceName ?? '–'}</strong>: <HealthBadge status={status.status} />{' '}
      <span data-fact="instances-count">{status.text}</span>
    </p>
  );
}

function InstanceRows({
  entries,
  now,
}: {
  readonly entries: readonly InstanceEntry[];
  readonly now: number;
}) {
  return (
    <table class="data-table instances-table">
      <caption class="visually-hidden">Instances of this service</caption>
      <thead>
        <tr>
          <th scope="col">Instance</th>
          <th scope="col">Presence</th>
          <th scope="col">Readiness</th>
          <th scope="col">Lifecycle</th>
          <th scope="col">Last heartbeat</th>
          <th scope="col">Host, process</th>
          <th scope="col">Version</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.instanceId} data-instance={entry.instanceId} data-presence={entry.presence}>
            <th scope="row">
              <a href={href('instances', entry.instanceId)}>{entry.instanceId}</a>
              {entry.current ? <span class="muted"> (this one)</span> : null}
            </th>
            <td>
              <PresenceBadge presence={entry.presence} />
            </td>
            <td>
              {entry.presence === 'online' ? (
                <HealthBadge status={entry.readiness} />
              ) : (
                <span class="muted">{entry.readiness} at its last heartbeat</span>
              )}
            </td>
            <td>{entry.lifecycleState}</td>
            <td>
              <TimeAgo iso={entry.lastSeenAtUtc} now={now} />
            </td>
            <td>
              {entry.hostName}, pid {entry.pid}
            </td>
            <td>{entry.serviceVersion ?? entry.engineVersion}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One instance's own state: every field of its catalog entry, and its JSON route. */
function InstanceFacts({ entry, now }: { readonly entry: InstanceEntry; readonly now: number }) {
  const path = `instances/${encodeURIComponent(entry.instanceId)}`;
  return (
    <section
      aria-labelledby="instance-heading"
      class="instance-facts"
      data-instance-detail={entry.instanceId}
    >
      <h3 id="instance-heading">Instance {entry.instanceId}</h3>
      <dl class="facts">
        <dt>Presence</dt>
        <dd>
          <PresenceBadge presence={entry.presence} />
        </dd>
        <dt>Readiness at the last heartbeat</dt>
        <dd>
          <HealthBadge status={entry.readiness} />
        </dd>
        <dt>Lifecycle state</dt>
        <dd>{entry.lifecycleState}</dd>
        <dt>Last heartbeat</dt>
        <dd>
          <TimeAgo iso={entry.lastSeenAtUtc} now={now} /> ({utcText(entry.lastSeenAtUtc)})
        </dd>
        <dt>Offline after</dt>
        <dd>{timeText(entry.offlineAfterUtc)} without a heartbeat</dd>
        <dt>Removed after</dt>
        <dd>{timeText(entry.removeAfterUtc)} without a heartbeat</dd>
        <dt>Started</dt>
        <dd>{timeText(entry.startedAtUtc)}</dd>
        <dt>Restarts</dt>
        <dd>{entry.restartCount}</dd>
        <dt>Stopped</dt>
        <dd>{entry.stoppedAtUtc ? timeText(entry.stoppedAtUtc) : 'no'}</dd>
        <dt>Host, process</dt>
        <dd>
          {entry.hostName}, pid {entry.pid}
        </dd>
        <dt>Versions</dt>
        <dd>
          service {entry.serviceVersion ?? '–'}, engine {entry.engineVersion}
        </dd>
        <dt>Heartbeat every</dt>
        <dd>{entry.heartbeatIntervalMs} ms</dd>
        <dt>Heartbeat write failing</dt>
        <dd>{entry.current ? (entry.heartbeatFailure ?? 'no') : 'known to that instance only'}</dd>
      </dl>
      <p class="links">
        JSON: <a href={path}>{shownUrl(path)}</a>
      </p>
    </section>
  );
}

function InstanceChanges({ story }: { readonly story: readonly RuntimeStoryEntry[] }) {
  const changes = instanceChanges(story).slice().reverse();
  if (changes.length === 0) return <p>No instance changed since this process started.</p>;
  return (
    <ol class="instance-changes">
      {changes.map((entry) => (
        <li key={entry.sequence} data-instance-transition={`${entry.subjectId}>${entry.transition}`}>
          <time dateTime={entry.atUtc} title={utcText(entry.atUtc)}>
            {timeText(entry.atUtc)}
          </time>{' '}
          <strong>{entry.transition}</strong>: {entry.message}
        </li>
      ))}
    </ol>
  );
}

/**
 * `#/instances[/{instanceId}]`: the service's instances (replica presence), the status across them, each
 * instance's own state one click away (its catalog entry: an instance does not advertise an address, so the
 * console shows what every replica reads from the shared store), and the instance changes of the story.
 */
export function InstancesView({
  state,
  now,
  selected,
}: {
  readonly state: ConsoleState;
  readonly now: number;
  readonly selected?: string;
}) {
  const { entries, error } = useInstances(state);
  const chosen = selected ? entries?.find((entry) => entry.instanceId === selected) : undefined;
  return (
    <section aria-labelledby="instances-heading">
      <ViewHeading focusKey={`instances-${selected ?? ''}`}>
        <span id="instances-heading">Instances</span>
      </ViewHeading>
      {error ? <p class="error-text">Instances unavailable: {error}</p> : null}
      {entries === null ? (
        <p>Loading…</p>
      ) : (
        <>
          <ServiceStatusLine entries={entries} />
          {entries[0]?.scope === 'process-local' ? (
            <p class="muted">
              The engine's store is not shared (Memory or File): only this instance is listed. Put the
              replicas on PostgreSQL or Redis (Engine:Stores) to see all of them.
            </p>
          ) : null}
          <p class="links">
            JSON: <a href="instances">{shownUrl('instances')}</a> ·{' '}
            <a href="instances/offline">{shownUrl('instances/offline')}</a>
          </p>
          <InstanceRows entries={entries} now={now} />
          {selected && !chosen ? <p>No instance has the id {selected} (removed, or not yet seen).</p> : null}
          {chosen ? <InstanceFacts entry={chosen} now={now} /> : null}
        </>
      )}
      <h3>Instance changes</h3>
      <InstanceChanges story={state.story} />
    </section>
  );
}
