import { z } from 'zod';
import { healthStatusSchema, runtimeStateSchema } from './health';

/*
 * Replica presence (`/engine/instances`, snapshot field `instances`): every engine instance of a service
 * heartbeats into the engine's store; the catalog lists them with what the answering instance concludes. The
 * engine (`@corekit/engine-core`) writes and judges them; operator surfaces read them with these schemas.
 */

/** Catalog id of the instances catalog (route `/engine/instances`). */
export const instancesCatalogId = 'instances';

/**
 * What an instance writes on every heartbeat. JSON only (every provider keeps it unchanged); times are ISO-8601
 * UTC, and `lastSeenAtMs` is the same instant as `lastSeenAtUtc` in epoch milliseconds.
 */
export const instanceRecordSchema = z.object({
  /** The engine instance id (`builder.instanceId`: `<host>:<pid>:<random>`); lease owners name it too. */
  instanceId: z.string(),
  /** `Engine:Presence:ServiceName`. */
  serviceName: z.string(),
  /** `Engine:Presence:ServiceVersion`; null when not configured. */
  serviceVersion: z.string().nullable(),
  /** The version of `@corekit/engine-core` the instance runs. */
  engineVersion: z.string(),
  hostName: z.string(),
  pid: z.number().int(),
  /** When this instance first started (its first heartbeat); kept across `engine.restart()`. */
  startedAtUtc: z.string(),
  /** The instance's last heartbeat. */
  lastSeenAtUtc: z.string(),
  lastSeenAtMs: z.number(),
  /** The runtime state at the last heartbeat (`Starting`, `Started`, `Stopping`, `Failed`...). */
  lifecycleState: runtimeStateSchema,
  /** Readiness at the last heartbeat. */
  readiness: healthStatusSchema,
  /** `engine.restart()` calls of this instance so far. */
  restartCount: z.number().int(),
  /** Set by a graceful stop (the stopping hooks ran): the instance announced it leaves; null otherwise. */
  stoppedAtUtc: z.string().nullable(),
  /** The writer's `Engine:Presence:HeartbeatInterval`, in milliseconds. */
  heartbeatIntervalMs: z.number(),
});
export type InstanceRecord = z.infer<typeof instanceRecordSchema>;

/**
 * `online`: heartbeats within `OfflineAfter`; `offline`: none for longer (killed, hung, or cut off from the
 * store); `stopped`: the instance stopped gracefully (announced in its last heartbeat).
 */
export const instancePresenceSchema = z.enum(['online', 'offline', 'stopped']);
export type InstancePresence = z.infer<typeof instancePresenceSchema>;

/** One entry of `/engine/instances`: the last heartbeat of an instance and what this instance concludes from it. */
export const instanceEntrySchema = instanceRecordSchema.extend({
  presence: instancePresenceSchema,
  /** True for the instance that answers the request. */
  current: z.boolean(),
  /**
   * `shared`: read from the shared store, every replica lists the same instances; `process-local`: the store is
   * not shared (Memory, File), so the list holds this instance only.
   */
  scope: z.enum(['shared', 'process-local']),
  /** When the instance is (or was) judged offline without a new heartbeat: `lastSeenAtUtc` + `OfflineAfter`. */
  offlineAfterUtc: z.string(),
  /** When its record is removed without a new heartbeat: `lastSeenAtUtc` + `RemoveAfter`. */
  removeAfterUtc: z.string(),
  /** The last heartbeat write of this instance that failed (current instance only); null when the last one worked. */
  heartbeatFailure: z.string().nullable(),
});
export type InstanceEntry = z.infer<typeof instanceEntrySchema>;
