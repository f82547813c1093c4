import type { Attributes, ObservableResult } from '@opentelemetry/api';
import type { MetricAttributes } from '@corekit/abstractions';

/**
 * The SDK's default cardinality limit per instrument: attribute sets past it are counted under
 * `otel.metric.overflow: true`, as the SDK does for its own instruments.
 */
export const counterCardinalityLimit = 2000;

const overflowAttributes: Attributes = { 'otel.metric.overflow': true };

interface Total {
  readonly attributes: Attributes;
  value: number;
}

/**
 * The running totals of one monotonic counter, per attribute set, kept in process and reported through an
 * observable counter when a reader collects. Adding is a string key and a map update: the SDK's own
 * synchronous counter hashes the sorted attributes and walks its storage on every `add`, which costs several
 * times more on a request path that adds to three counters. The totals are cumulative from the first `add`,
 * which is what a cumulative reader exports; the SDK turns them into deltas for a delta reader.
 */
export class CounterTotals {
  private readonly totals = new Map<string, Total>();

  add(value: number, attributes?: MetricAttributes): void {
    // A counter only goes up: the SDK drops a negative or non-finite value the same way.
    if (!(value >= 0) || value === Number.POSITIVE_INFINITY) return;
    let key = '';
    if (attributes) {
      for (const name in attributes) {
        const item = attributes[name];
        key += `${name}\u0000${typeof item}\u0000${String(item)}\u0001`;
      }
    }
    const total = this.totals.get(key);
    if (total) {
      total.value += value;
      return;
    }
    if (this.totals.size >= counterCardinalityLimit) {
      const overflow = this.totals.get('overflow');
      if (overflow) overflow.value += value;
      else this.totals.set('overflow', { attributes: overflowAttributes, value });
      return;
    }
    this.totals.set(key, { attributes: { ...attributes }, value });
  }

  /**
   * Reports every total once per attribute set: the same set added with its keys in another order is one
   * series, summed here (the SDK keeps only the last observation of a set).
   */
  observe(result: ObservableResult): void {
    const series = new Map<string, Total>();
    for (const total of this.totals.values()) {
      const canonical = JSON.stringify(Object.entries(total.attributes).sort(([a], [b]) => (a < b ? -1 : 1)));
      const seen = series.get(canonical);
      if (seen) seen.value += total.value;
      else series.set(canonical, { attributes: total.attributes, value: total.value });
    }
    for (const { attributes, value } of series.values()) result.observe(value, attributes);
  }
}
