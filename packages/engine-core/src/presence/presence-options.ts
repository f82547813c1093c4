import { z } from 'zod';
import { durationSchema } from '@corekit/abstractions';

/** The longest timer Node.js accepts (about 24.8 days). */
const maxTimerMs = 2_147_483_647;

/**
 * `Engine:Presence`: how each engine instance tells the replicas of its service that it is alive. Durations
 * accept `00:00:05`, `5s` or `PT5S`; values are milliseconds. On a shared store provider (PostgreSQL, Redis)
 * every instance writes a heartbeat record every `HeartbeatInterval`; an instance whose last heartbeat is older
 * than `OfflineAfter` is offline, and its record is removed once it is older than `RemoveAfter`. On a store
 * that is not shared (Memory, File) nothing is written: `/engine/instances` lists this instance only.
 */
export const presenceOptionsSchema = z
  .object({
    /** Heartbeats and the `/engine/instances` catalog. Default true; false lists no instance and writes nothing. */
    Enabled: z.boolean().default(true),
    /** Time between two heartbeats of this instance. Default 5s; at least 100ms. */
    HeartbeatInterval: durationSchema()
      .refine((milliseconds) => milliseconds >= 100 && milliseconds <= maxTimerMs, {
        message: 'must be at least 100ms (and at most about 24 days)',
      })
      .default(5_000 as never),
    /**
     * An instance whose last heartbeat is older than this is offline (it was killed, hangs, or lost the store).
     * Must be longer than HeartbeatInterval. Default 20s.
     */
    OfflineAfter: durationSchema().default(20_000 as never),
    /**
     * The record of an instance whose last heartbeat is older than this is removed from the store (and the
     * catalog), whether it went offline or stopped gracefully. Must be longer than OfflineAfter. Default 10m.
     */
    RemoveAfter: durationSchema()
      .refine((milliseconds) => milliseconds <= maxTimerMs, { message: 'must be at most about 24 days' })
      .default(600_000 as never),
  })
  .superRefine((options, context) => {
    const interval = options.HeartbeatInterval;
    const offline = options.OfflineAfter;
    const remove = options.RemoveAfter;
    if (offline <= interval) {
      context.addIssue({
        code: 'custom',
        path: ['OfflineAfter'],
        message: `must be longer than HeartbeatInterval (${interval} ms), got ${offline} ms: a live instance would be shown offline between two heartbeats`,
      });
    }
    if (remove <= offline) {
      context.addIssue({
        code: 'custom',
        path: ['RemoveAfter'],
        message: `must be longer than OfflineAfter (${offline} ms), got ${remove} ms: an instance must be offline before it is removed`,
      });
    }
  });

/** The bound `Engine:Presence` section (durations in milliseconds). */
export interface PresenceOptions {
  readonly Enabled: boolean;
  readonly HeartbeatInterval: number;
  readonly OfflineAfter: number;
  readonly RemoveAfter: number;
}
