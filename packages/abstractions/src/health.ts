import { z } from 'zod';

/** The three health statuses every report and dependency result uses. */
export const healthStatusSchema = z.enum(['Healthy', 'Degraded', 'Unhealthy']);
export type HealthStatus = z.infer<typeof healthStatusSchema>;

const severity: Record<HealthStatus, number> = { Healthy: 0, Degraded: 1, Unhealthy: 2 };

/** The worse of two statuses (Unhealthy > Degraded > Healthy). */
export function worstStatus(a: HealthStatus, b: HealthStatus): HealthStatus {
  return severity[a] >= severity[b] ? a : b;
}

/** Runtime states of the engine (spec 3.1). Starting and Stopping are the startup and shutdown phases. */
export const runtimeStateSchema = z.enum(['Created', 'Starting', 'Started', 'Stopping', 'Stopped', 'Failed']);
export type RuntimeState = z.infer<typeof runtimeStateSchema>;

/** Lifecycle windows that can be in effect (spec 2.2). */
export const lifecycleWindowSchema = z.enum([
  'StartupReadinessDelay',
  'ShutdownLivenessGracePeriod',
  'ManualRestartBackoff',
]);
export type LifecycleWindow = z.infer<typeof lifecycleWindowSchema>;

/** Why the runtime last failed: the phase, the module at fault (if any) and the error. */
export const failureContextSchema = z.object({
  phase: z.string().describe('lifecycle phase in which the failure happened, e.g. "module-start"'),
  moduleId: z.string().nullable(),
  code: z.string().describe('stable machine-readable error code'),
  message: z.string(),
  occurredAtUtc: z.string(),
  restartable: z.boolean(),
});
export type FailureContext = z.infer<typeof failureContextSchema>;

/** The outcome of one dependency check, as a contributor returns it. */
export const dependencyCheckResultSchema = z.object({
  status: healthStatusSchema,
  description: z.string().optional(),
  /** Machine-readable error code and a message a user can act on; never carries a secret. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Small, non-secret facts about the upstream (server version, cluster status, leader...). */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type DependencyCheckResult = z.infer<typeof dependencyCheckResultSchema>;

/** The cached, published state of one dependency (what requests read; they never run a check). */
export const dependencyHealthEntrySchema = z.object({
  id: z.string(),
  displayName: z.string(),
  kind: z.string(),
  required: z.boolean(),
  status: healthStatusSchema,
  description: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  data: z.record(z.string(), z.unknown()),
  checkedAtUtc: z.string().nullable().describe('when the last completed run finished; null before the first'),
  durationMs: z.number().nullable(),
  timedOut: z.boolean(),
  stale: z.boolean().describe('true when the last result is older than 3 refresh intervals; never Healthy'),
  refreshIntervalSeconds: z.number(),
  timeoutSeconds: z.number(),
  consecutiveFailures: z.number().int(),
});
export type DependencyHealthEntry = z.infer<typeof dependencyHealthEntrySchema>;

/** The health report of spec 2.1, answered by /health, /health/live and /health/ready. */
export const healthReportSchema = z.object({
  status: healthStatusSchema,
  /** Time spent producing this report, ISO-8601 duration (reports read cached results, so it is small). */
  duration: z.string(),
  durationMs: z.number(),
  checkedAtUtc: z.string(),
  runtime: z.object({
    state: runtimeStateSchema,
    restartCount: z.number().int(),
    lastFailure: failureContextSchema.nullable(),
  }),
  reasons: z.array(z.string()).describe('why the status is not Healthy, in plain words'),
  dependencies: z.array(dependencyHealthEntrySchema).optional(),
  activeWindow: lifecycleWindowSchema.optional(),
  activeWindowEndsAtUtc: z.string().optional(),
  restartAvailableAtUtc: z.string().optional(),
});
export type HealthReport = z.infer<typeof healthReportSchema>;
