import { eventIdRanges, type EventIdCatalogEntry, type EventIdRange } from '@corekit/abstractions';

const overlaps = (a: readonly [number, number], b: readonly [number, number]) => a[0] <= b[1] && b[0] <= a[1];
const within = (inner: readonly [number, number], outer: readonly [number, number]) =>
  inner[0] >= outer[0] && inner[1] <= outer[1];

/**
 * The event-id catalog `/engine/diagnostics` publishes: the spec's ranges, with the names packages register.
 * A package's range that lies inside a spec range names that component's ids; a range outside the spec's is
 * listed as its own component. Two packages may not claim overlapping ranges.
 */
export class EventIdCatalog {
  private readonly registered: EventIdCatalogEntry[] = [];

  add(entry: EventIdCatalogEntry): void {
    this.registered.push(entry);
  }

  /** Problems found across registrations (overlaps, inverted ranges, names outside the ranges). */
  problems(): string[] {
    const problems: string[] = [];
    this.registered.forEach((entry, index) => {
      for (const range of entry.ranges) {
        if (!(Number.isInteger(range[0]) && Number.isInteger(range[1]) && range[0] <= range[1])) {
          problems.push(
            `event ids of ${entry.component}: [${range.join(', ')}] is not a range [first, last]`,
          );
        }
      }
      for (const id of Object.keys(entry.names ?? {}).map(Number)) {
        if (!entry.ranges.some((range) => id >= range[0] && id <= range[1])) {
          problems.push(`event ids of ${entry.component}: ${id} is named but outside its ranges`);
        }
      }
      for (const other of this.registered.slice(index + 1)) {
        if (other.component === entry.component) continue;
        if (entry.ranges.some((range) => other.ranges.some((range2) => overlaps(range, range2)))) {
          problems.push(`event ids of ${entry.component} overlap those of ${other.component}`);
        }
      }
    });
    return problems;
  }

  ranges(): EventIdRange[] {
    const claimed = new Set<EventIdCatalogEntry>();
    const result: EventIdRange[] = eventIdRanges.map((spec) => {
      const names: Record<number, string> = {};
      for (const entry of this.registered) {
        if (!entry.ranges.every((range) => spec.ranges.some((specRange) => within(range, specRange))))
          continue;
        claimed.add(entry);
        Object.assign(names, entry.names ?? {});
      }
      return Object.keys(names).length > 0 ? { ...spec, names } : spec;
    });
    for (const entry of this.registered) {
      if (claimed.has(entry)) continue;
      const existing = result.findIndex((range) => range.component === entry.component);
      const range: EventIdRange = {
        component: entry.component,
        ranges: entry.ranges,
        ...(entry.names ? { names: entry.names } : {}),
      };
      if (existing >= 0) {
        result[existing] = {
          component: entry.component,
          ranges: [...result[existing].ranges, ...entry.ranges],
          names: { ...(result[existing].names ?? {}), ...(entry.names ?? {}) },
        };
      } else result.push(range);
    }
    return result;
  }
}
