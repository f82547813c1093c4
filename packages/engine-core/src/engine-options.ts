import { z } from 'zod';
import { durationSchema } from '@corekit/abstractions';
import type { ConfigurationStore } from './configuration-store';

/** `Engine:FailurePolicy` (spec 2.2). Durations accept `00:00:30`, `30s` or `PT30S`; values are milliseconds. */
export const failurePolicySchema = z.object({
  /** Keeps readiness Unhealthy for this long after startup succeeds. Default: no delay. */
  StartupReadinessDelay: durationSchema().default(0 as never),
  /** Keeps liveness Healthy while shutdown drains; liveness turns Unhealthy if the drain outlasts it. Default 30s. */
  ShutdownLivenessGracePeriod: durationSchema().default(30_000 as never),
  /** Earliest time after a restartable startup failure at which an explicit restart is allowed. Default 10s. */
  ManualRestartBackoff: durationSchema().default(10_000 as never),
});
export type FailurePolicy = {
  StartupReadinessDelay: number;
  ShutdownLivenessGracePeriod: number;
  ManualRestartBackoff: number;
};

/** `Engine:RuntimeStory`: the bound of the ordered timeline. */
export const runtimeStoryOptionsSchema = z.object({
  /** Most entries kept; older entries are dropped and counted. Default 1000. */
  MaxEntries: z.number().int().positive().max(1_000_000).default(1000),
});

/** `Engine:Observability:DependencyHealth`: defaults applied to contributors that do not set their own. */
export const dependencyHealthDefaultsSchema = z.object({
  /** Refresh interval in seconds for contributors that set none. Default 30. */
  RefreshIntervalSeconds: z.number().int().positive().default(30),
  /** Timeout in seconds for contributors that set none. Default 5. */
  TimeoutSeconds: z.number().positive().default(5),
  /** A floor: a result is stale after max(interval + timeout + 1 s, this many intervals). Default 3. */
  StaleAfterIntervals: z.number().positive().default(3),
});

/**
 * `Engine:Shutdown`: the bound of every wait a stop takes in the engine, in the order it takes them (the host's
 * request drain, `Engine:Web:DrainTimeout`, runs between the stopping hooks and `engine.stop()`). Durations
 * accept `00:00:10`, `10s` or `PT10S`; values are milliseconds. A wait that runs out is recorded in the story
 * and logged, and the stop goes on: a stop never waits longer than the sum of these.
 */
export const shutdownOptionsSchema = z.object({
  /** Longest wait for the packs' `stopping` hooks, all of them together. Default 10s. */
  StoppingHooksTimeout: durationSchema().default(10_000 as never),
  /** Longest wait for running background jobs after their signals were aborted. Default 10s. */
  JobStopTimeout: durationSchema().default(10_000 as never),
  /** Longest wait for the store provider to close (pools, clients). Default 5s. */
  StoreCloseTimeout: durationSchema().default(5_000 as never),
});
export type ShutdownOptions = {
  StoppingHooksTimeout: number;
  JobStopTimeout: number;
  StoreCloseTimeout: number;
};

/** The longest timer Node.js accepts (about 24.8 days); a longer startup bound would fire at once. */
const maxTimerMs = 2_147_483_647;

/**
 * `Engine:Startup`: the bound of a start. Durations accept `00:02:00`, `2m` or `PT2M`; values are milliseconds.
 */
export const startupOptionsSchema = z.object({
  /**
   * Longest time from `Starting` to `Started` (the packs' starting hooks, package discovery, every module's
   * initialize and start, hosted services, the first dependency checks, the packs' started hooks). Past it the
   * start fails with ENGINE_START_TIMEOUT in the phase that was running, the engine signal is aborted and what had
   * started is stopped; the failure is restartable. Default `0s`: no bound.
   */
  Timeout: durationSchema()
    .refine((milliseconds) => milliseconds <= maxTimerMs, {
      message: `must be at most ${maxTimerMs} ms (about 24 days); use 0s for no bound`,
    })
    .default(0 as never),
});
export type StartupOptions = { Timeout: number };

/**
 * The engine's own sections as `build()` reads them, in this order (the first invalid one fails the build):
 * `Engine:FailurePolicy`, `Engine:Shutdown`, `Engine:Startup`, `Engine:Observability:DependencyHealth`.
 */
export function bindEngineOptions(configuration: Pick<ConfigurationStore, 'bind'>) {
  return {
    failurePolicy: configuration.bind(
      'Engine:FailurePolicy',
      failurePolicySchema,
    ) as unknown as FailurePolicy,
    shutdown: configuration.bind('Engine:Shutdown', shutdownOptionsSchema) as unknown as ShutdownOptions,
    startup: configuration.bind('Engine:Startup', startupOptionsSchema) as unknown as StartupOptions,
    healthDefaults: configuration.bind(
      'Engine:Observability:DependencyHealth',
      dependencyHealthDefaultsSchema,
    ),
  };
}
