import {
  instanceEntrySchema,
  instancesCatalogId,
  type CatalogDefinition,
  type InstanceEntry,
} from '@corekit/abstractions';

/**
 * `/engine/instances` (snapshot field `instances`): the instances of this service with their presence, from
 * the heartbeats in the engine's store. Views: `online`, `offline` (an operator should look: killed, hung or cut
 * off from the store) and `stopped`; `/engine/instances/{instanceId}` answers one.
 */
export function instanceCatalog(entries: () => readonly InstanceEntry[]): CatalogDefinition<InstanceEntry> {
  return {
    id: instancesCatalogId,
    displayName: 'Instances',
    description:
      'The engine instances (replicas) of this service: host, process, versions, lifecycle state, readiness and last heartbeat; online, offline after Engine:Presence:OfflineAfter without a heartbeat, stopped after a graceful stop, removed after RemoveAfter. scope process-local: the store is not shared, only this instance is listed.',
    path: '/engine/instances',
    snapshotField: 'instances',
    idField: 'instanceId',
    entrySchema: instanceEntrySchema,
    list: entries,
    views: [
      {
        segment: 'online',
        description: 'instances heartbeating within Engine:Presence:OfflineAfter',
        select: (entry) => entry.presence === 'online',
      },
      {
        segment: 'offline',
        description:
          'instances with no heartbeat for longer than Engine:Presence:OfflineAfter (killed, hung or cut off from the store)',
        attention: true,
        select: (entry) => entry.presence === 'offline',
      },
      {
        segment: 'stopped',
        description: 'instances that stopped gracefully, listed until Engine:Presence:RemoveAfter',
        select: (entry) => entry.presence === 'stopped',
      },
    ],
  };
}
