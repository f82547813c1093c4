import type { InstancePresence, InstanceRecord } from '@corekit/abstractions';

/** Name of the store the heartbeats are written to (one record per instance, keyed by service and instance). */
export const instanceStoreName = 'engine-instances';

/** What the observer's bounds say about a record at `now` (epoch milliseconds). */
export function presenceOf(record: InstanceRecord, now: number, offlineAfterMs: number): InstancePresence {
  if (record.stoppedAtUtc !== null) return 'stopped';
  return now - record.lastSeenAtMs > offlineAfterMs ? 'offline' : 'online';
}

/** The store key of an instance: service and instance id, each URI-encoded so neither can forge the boundary. */
export function instanceKey(serviceName: string, instanceId: string): string {
  return `${servicePrefix(serviceName)}${encodeURIComponent(instanceId)}`;
}

/** The key prefix every instance of a service shares. */
export function servicePrefix(serviceName: string): string {
  return `${encodeURIComponent(serviceName)}/`;
}
