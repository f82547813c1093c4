import type { Histogram, ObservableCounter } from '@opentelemetry/api';
import {
  CoreError,
  type HistogramAdvice,
  type MetricAttributes,
  type PackCounter,
  type PackHistogram,
  type PackMeter,
} from '@corekit/abstractions';
import { meterName, type InstrumentDescription } from '../diagnostics';
import { meterBound } from '../meter-binding';
import { CounterTotals } from './counter-totals';

const instrumentNamePattern = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

interface Instrument extends InstrumentDescription {
  readonly handle: PackCounter | PackHistogram;
}

/**
 * Counters and histograms for packs, on the engine's OpenTelemetry meter. Instruments are created on first
 * use of a name; asking again for the same name and kind returns the same instrument. Each follows the meter
 * provider registered at the time of a measurement, so an SDK started after registration still sees it.
 */
export class EngineMeter implements PackMeter {
  private readonly instruments = new Map<string, Instrument>();

  counter(name: string, description: string, unit?: string): PackCounter {
    return this.instrument(name, 'counter', description, unit, () => {
      // Totals kept here and observed at collection (see CounterTotals): one map update per `add`.
      const totals = new CounterTotals();
      const counter = meterBound(meterName, (meter): ObservableCounter => {
        const instrument = meter.createObservableCounter(name, { description, unit });
        instrument.addCallback((result) => totals.observe(result));
        return instrument;
      });
      return {
        add: (value = 1, attributes?: MetricAttributes) => {
          counter();
          totals.add(value, attributes);
        },
      };
    }) as PackCounter;
  }

  histogram(name: string, description: string, advice?: string | HistogramAdvice): PackHistogram {
    const { unit, buckets } =
      typeof advice === 'string' ? { unit: advice, buckets: undefined } : (advice ?? {});
    return this.instrument(name, 'histogram', description, unit, () => {
      // The SDK (2.x) applies the advised boundaries unless a view the host configured says otherwise.
      const histogram = meterBound(meterName, (meter): Histogram =>
        meter.createHistogram(name, {
          description,
          unit,
          ...(buckets ? { advice: { explicitBucketBoundaries: [...buckets] } } : {}),
        }),
      );
      return {
        record: (value: number, attributes?: MetricAttributes) => histogram().record(value, attributes),
      };
    }) as PackHistogram;
  }

  /** Every instrument created through this meter, in the `/engine/diagnostics` `counters` shape. */
  descriptions(): Record<string, InstrumentDescription> {
    return Object.fromEntries(
      [...this.instruments].map(([name, { kind, description, unit }]) => [
        name,
        { kind, description, ...(unit ? { unit } : {}) },
      ]),
    );
  }

  private instrument(
    name: string,
    kind: Instrument['kind'],
    description: string,
    unit: string | undefined,
    create: () => PackCounter | PackHistogram,
  ): PackCounter | PackHistogram {
    const existing = this.instruments.get(name);
    if (existing) {
      if (existing.kind !== kind) {
        throw new CoreError('METRIC_INVALID', `Metric ${name} is already a ${existing.kind}, not a ${kind}`);
      }
      return existing.handle;
    }
    if (!instrumentNamePattern.test(name)) {
      throw new CoreError(
        'METRIC_INVALID',
        `Metric name "${name}" must be dotted lower case (corekit.eventing.publications)`,
      );
    }
    const handle = create();
    this.instruments.set(name, { kind, description, ...(unit ? { unit } : {}), handle });
    return handle;
  }
}
