import type { CoreEngine } from '@corekit/engine-core';
import type { CaptureLogger } from './capture-logger';

/** A server process a test can stop and start again on the same port. */
export interface RestartableServer {
  stop(): Promise<unknown>;
  start(): Promise<unknown>;
}

/** What `expectRecoveryAcrossRestart` checks. */
export interface RecoveryAcrossRestart {
  /** A built engine whose first dependency points at `server`. */
  readonly engine: CoreEngine;
  readonly logger: CaptureLogger;
  readonly server: RestartableServer;
  /** The probe's event ids: logged when the dependency turns Healthy, and when it turns Unhealthy. */
  readonly healthyEventId: number;
  readonly unhealthyEventId: number;
  /** More fields the first, Healthy entry must match (`{ data: { version } }`). */
  readonly healthyEntry?: Record<string, unknown>;
}

/**
 * The probe lifecycle against a real server: Healthy on the first refresh; refused (Unhealthy, not timed out,
 * ECONNREFUSED) on the refresh after the server stops; Healthy again after it starts; and exactly one
 * healthy, unhealthy, healthy sequence of transition events in the log.
 */
export async function expectRecoveryAcrossRestart(check: RecoveryAcrossRestart): Promise<void> {
  const { engine, logger, server, healthyEventId, unhealthyEventId } = check;
  await engine.refreshDependencies();
  expect(engine.dependencies()[0]).toMatchObject({ status: 'Healthy', ...check.healthyEntry });

  await server.stop();
  await engine.refreshDependencies();
  expect(engine.dependencies()[0]).toMatchObject({
    status: 'Unhealthy',
    timedOut: false,
    error: { code: 'ECONNREFUSED' },
  });

  await server.start();
  await engine.refreshDependencies();
  expect(engine.dependencies()[0]?.status).toBe('Healthy');
  expect(transitionEventIds(logger, healthyEventId, unhealthyEventId)).toEqual([
    healthyEventId,
    unhealthyEventId,
    healthyEventId,
  ]);
}

/** The logged event ids that are `healthyEventId` or `unhealthyEventId`, in the order they were logged. */
export function transitionEventIds(
  logger: CaptureLogger,
  healthyEventId: number,
  unhealthyEventId: number,
): number[] {
  return logger.records
    .map((record) => record.eventId)
    .filter((id): id is number => id === healthyEventId || id === unhealthyEventId);
}
