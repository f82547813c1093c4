import type { InstanceEntry } from '@corekit/abstractions';

/** The service's status across its instances, as the instances view and the overview's card show it. */
export interface ServiceStatus {
  /**
   * `Healthy`: every instance listed is online and ready Healthy (a gracefully stopped one does not count against
   * it); `Degraded`: at least one online instance is ready (Healthy or Degraded), but another is offline or an
   * online one is not Healthy; `Unhealthy`: no online instance is ready; `Unknown`: nothing listed yet.
   */
  readonly status: 'Healthy' | 'Degraded' | 'Unhealthy' | 'Unknown';
  readonly serviceName: string | null;
  readonly online: number;
  readonly offline: number;
  readonly stopped: number;
  readonly total: number;
  /** "2 of 3 instances online · 1 offline". */
  readonly text: string;
}

const ready = (entry: InstanceEntry) =>
  entry.presence === 'online' && (entry.readiness === 'Healthy' || entry.readiness === 'Degraded');

/** Aggregates the instances of `/engine/instances` into one service status (see {@link ServiceStatus}). */
export function serviceStatus(entries: readonly InstanceEntry[]): ServiceStatus {
  const count = (presence: InstanceEntry['presence']) =>
    entries.filter((entry) => entry.presence === presence).length;
  const online = count('online');
  const offline = count('offline');
  const stopped = count('stopped');
  const live = entries.filter((entry) => entry.presence !== 'stopped');
  const status: ServiceStatus['status'] =
    entries.length === 0
      ? 'Unknown'
      : !entries.some(ready)
        ? 'Unhealthy'
        : offline > 0 || live.some((entry) => entry.readiness !== 'Healthy')
          ? 'Degraded'
          : 'Healthy';
  const text = [
    `${online} of ${live.length} instance${live.length === 1 ? '' : 's'} online`,
    offline ? `${offline} offline` : '',
    stopped ? `${stopped} stopped` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    status,
    serviceName: entries[0]?.serviceName ?? null,
    online,
    offline,
    stopped,
    total: entries.length,
    text,
  };
}
