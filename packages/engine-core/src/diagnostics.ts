import { metrics, trace, type Counter, type Tracer } from '@opentelemetry/api';

/** Meter and activity-source (tracer) names under which the engine records (spec 4.1). */
export const meterName = 'corekit.engine';
export const activitySourceName = 'corekit.engine';

/** Counter names by what they count; the keys are stable and published by /engine/diagnostics. */
export const counterNames = {
  runtimeTransitions: 'corekit.engine.runtime.transitions',
  moduleTransitions: 'corekit.engine.module.transitions',
  failures: 'corekit.engine.failures',
  restarts: 'corekit.engine.restarts',
  executionGraphTransitions: 'corekit.engine.execution_graph.transitions',
  hostedExecutionTransitions: 'corekit.engine.hosted_execution.transitions',
  dependencyChecks: 'corekit.engine.dependency.checks',
} as const;

export type CounterKey = keyof typeof counterNames;

/** Span names by what they cover; recorded under the activity source (tracer) `activitySourceName`. */
export const spanNames = {
  /** One dependency-health run, from start to result or timeout; attributes corekit.dependency.*. */
  dependencyCheck: 'corekit.engine.dependency.check',
} as const;

/**
 * The engine's tracer. Looked up on each call, so a tracer provider the host registers after the engine was
 * built is still used; a no-op until one is registered.
 */
export function engineTracer(): Tracer {
  return trace.getTracer(activitySourceName);
}

export const diagnosticsConventions = {
  logFormat: 'structured records with eventId, level, message and category; secrets are redacted',
  metricAttributes: 'transition, subject_id, kind, status; never secret values',
  timestamps: 'ISO-8601 UTC in fields ending AtUtc',
  healthStatuses: 'Healthy, Degraded, Unhealthy; Healthy and Degraded answer 200, Unhealthy 503',
};

/** Records the engine's counters through @opentelemetry/api (a no-op until the host wires an SDK). */
export class EngineInstruments {
  private readonly counters: Record<CounterKey, Counter>;
  readonly tracer = engineTracer();

  constructor() {
    const meter = metrics.getMeter(meterName);
    this.counters = Object.fromEntries(
      Object.entries(counterNames).map(([key, name]) => [key, meter.createCounter(name)]),
    ) as Record<CounterKey, Counter>;
  }

  count(key: CounterKey, attributes: Record<string, string> = {}): void {
    this.counters[key].add(1, attributes);
  }
}
