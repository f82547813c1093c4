import type { Counter, Histogram, Tracer } from '@opentelemetry/api';
import { tracerBound } from './tracer-binding';
import type { DiagnosticsInstrument } from '@corekit/abstractions';
import { meterBound } from './meter-binding';

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

/** What each engine counter counts, as Prometheus and other backends show it. */
const counterDescriptions: Record<CounterKey, string> = {
  runtimeTransitions: 'runtime state transitions, by target state',
  moduleTransitions: 'module lifecycle transitions, by transition and module',
  failures: 'startup failures, by phase',
  restarts: 'explicit restarts',
  executionGraphTransitions: 'execution graph lifecycle transitions',
  hostedExecutionTransitions: 'hosted execution lifecycle transitions',
  dependencyChecks: 'dependency checks run, by kind and outcome',
};

/** Histogram names by what they measure; the keys are stable. Values are milliseconds. */
export const histogramNames = {
  /** Duration of one dependency-health check (a probe run), timed out runs included; attributes kind, outcome. */
  dependencyCheckDuration: 'corekit.dependency.check.duration',
} as const;

export type HistogramKey = keyof typeof histogramNames;

/** What each engine histogram measures, and its unit. */
const histogramDescriptions: Record<HistogramKey, { readonly description: string; readonly unit: string }> = {
  dependencyCheckDuration: {
    description: 'Duration of one dependency-health check (probe run), timed-out runs included',
    unit: 'ms',
  },
};

/** One instrument in `/engine/diagnostics` `counters` (the contract's `DiagnosticsInstrument`). */
export type InstrumentDescription = DiagnosticsInstrument;

/** The engine's own instruments, in the `/engine/diagnostics` `counters` shape. */
export function engineInstrumentDescriptions(): Record<string, InstrumentDescription> {
  return Object.fromEntries([
    ...Object.entries(counterNames).map(([key, name]) => [
      name,
      { kind: 'counter', description: counterDescriptions[key as CounterKey] },
    ]),
    ...Object.entries(histogramNames).map(([key, name]) => [
      name,
      { kind: 'histogram', ...histogramDescriptions[key as HistogramKey] },
    ]),
  ]);
}

/** Span names by what they cover; recorded under the activity source (tracer) `activitySourceName`. */
export const spanNames = {
  /** One dependency-health run, from start to result or timeout; attributes corekit.dependency.*. */
  dependencyCheck: 'corekit.engine.dependency.check',
} as const;

/**
 * The engine's tracer, bound to the tracer provider registered now (see `tracerBound`): a tracer provider the
 * host registers after the engine was built is still used; a no-op until one is registered.
 */
export const engineTracer: () => Tracer = tracerBound(activitySourceName);

export const diagnosticsConventions = {
  logFormat: 'structured records with eventId, level, message and category; secrets are redacted',
  metricAttributes: 'transition, subject_id, kind, status; never secret values',
  timestamps: 'ISO-8601 UTC in fields ending AtUtc',
  healthStatuses: 'Healthy, Degraded, Unhealthy; Healthy and Degraded answer 200, Unhealthy 503',
};

/**
 * Records the engine's counters and histograms through @opentelemetry/api, on the meter provider registered
 * at the time of each measurement (a provider registered after the engine was built is used from then on).
 */
export class EngineInstruments {
  private readonly counters = meterBound(
    meterName,
    (meter) =>
      Object.fromEntries(
        Object.entries(counterNames).map(([key, name]) => [
          key,
          meter.createCounter(name, { description: counterDescriptions[key as CounterKey] }),
        ]),
      ) as Record<CounterKey, Counter>,
  );
  private readonly histograms = meterBound(meterName, (meter): Record<HistogramKey, Histogram> => ({
    dependencyCheckDuration: meter.createHistogram(
      histogramNames.dependencyCheckDuration,
      histogramDescriptions.dependencyCheckDuration,
    ),
  }));
  readonly tracer = engineTracer();

  /** Records one measurement in milliseconds. */
  record(key: HistogramKey, milliseconds: number, attributes: Record<string, string> = {}): void {
    this.histograms()[key].record(milliseconds, attributes);
  }

  count(key: CounterKey, attributes: Record<string, string> = {}): void {
    this.counters()[key].add(1, attributes);
  }
}
