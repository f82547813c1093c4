import type {
  ServiceIdentity,
  InstancePresence,
  InstanceRecord,
  Logger,
  RuntimeEventPublisher,
  RuntimeStoryWriter,
} from '@corekit/abstractions';
import { engineRecordEventIds } from '../engine-record-event-ids';
import { presenceOf } from './instance-record';
import type { PresenceOptions } from './presence-options';

/** A change of another instance's presence as this instance saw it. */
export type PresenceTransition = InstancePresence | 'removed';

const eventIds: Readonly<Record<PresenceTransition, number>> = {
  online: engineRecordEventIds.instanceOnline,
  offline: engineRecordEventIds.instanceOffline,
  stopped: engineRecordEventIds.instanceStopped,
  removed: engineRecordEventIds.instanceRemoved,
};

const sentences: Readonly<Record<PresenceTransition, string>> = {
  online: 'is online',
  offline: 'is offline: no heartbeat within OfflineAfter',
  stopped: 'stopped gracefully',
  removed: 'was removed: no heartbeat within RemoveAfter',
};

interface TransitionParts {
  readonly options: PresenceOptions;
  readonly service: ServiceIdentity;
  readonly story: RuntimeStoryWriter;
  readonly events: RuntimeEventPublisher;
  readonly logger: Logger;
}

/**
 * What this instance last concluded about each other instance of its service, and the record of every change:
 * a runtime-story entry (kind `engine.instance`), a runtime event (`engine.instance-<transition>`) and a log
 * record with the engine's presence event id (2033-2036). An instance first seen online is recorded `online`;
 * one first seen offline or stopped is not (that happened before this instance watched), but its removal is.
 * Each replica records what it sees, so every replica's story tells the same changes.
 */
export class PresenceTransitions {
  private readonly seen = new Map<string, InstancePresence>();

  constructor(private readonly parts: TransitionParts) {}

  /** Compares the instances just read with the last ones; records each change. */
  observe(records: readonly InstanceRecord[], now: number): void {
    const listed = new Set<string>();
    for (const record of records) {
      listed.add(record.instanceId);
      const presence = presenceOf(record, now, this.parts.options.OfflineAfter);
      const before = this.seen.get(record.instanceId);
      this.seen.set(record.instanceId, presence);
      if (before === presence || (before === undefined && presence !== 'online')) continue;
      this.record(record.instanceId, presence, record);
    }
    for (const instanceId of [...this.seen.keys()]) {
      if (listed.has(instanceId)) continue;
      this.seen.delete(instanceId);
      this.record(instanceId, 'removed', null);
    }
  }

  /** This instance could not write its heartbeat (logged once per failure streak). */
  heartbeatFailed(message: string): void {
    this.parts.logger.log({
      level: 'warn',
      eventId: engineRecordEventIds.heartbeatFailed,
      category: 'engine.presence',
      message: `The heartbeat of this instance could not be written; other replicas will show it offline after OfflineAfter: ${message}`,
    });
  }

  private record(instanceId: string, transition: PresenceTransition, record: InstanceRecord | null): void {
    const details = {
      instanceId,
      serviceName: this.parts.service.name,
      ...(record ? { hostName: record.hostName, pid: record.pid, lastSeenAtUtc: record.lastSeenAtUtc } : {}),
    };
    const message = `Instance ${instanceId} of ${this.parts.service.name} ${sentences[transition]}`;
    this.parts.story.record({ kind: 'engine.instance', subjectId: instanceId, transition, message, details });
    this.parts.events.publish({
      type: `engine.instance-${transition}`,
      subjectId: instanceId,
      data: details,
    });
    this.parts.logger.log({
      level: transition === 'offline' ? 'warn' : 'info',
      eventId: eventIds[transition],
      category: 'engine.presence',
      message,
      ...details,
    });
  }
}
