import { metrics, type Meter, type MeterProvider } from '@opentelemetry/api';

/**
 * Instruments bound to the meter provider registered now, recreated when another one is registered. The
 * OpenTelemetry metrics API has no proxy provider: an instrument taken before the SDK starts stays a no-op
 * forever. Binding this way lets an SDK started at any point of registration (`addOpenTelemetry` starts it
 * as the first step of each engine start) see every engine and pack instrument, at the cost of one identity check per use.
 */
export function meterBound<T>(meterName: string, create: (meter: Meter) => T): () => T {
  let provider: MeterProvider | undefined;
  let value: T | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (current !== provider || value === undefined) {
      provider = current;
      value = create(current.getMeter(meterName));
    }
    return value;
  };
}
