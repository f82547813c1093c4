import { observabilityEventIds, type Logger, type RuntimeStoryEntry } from '@corekit/abstractions';
import { isoAt, type Clock } from './clock';

export interface RuntimeStoryOptions {
  /** Receives 3006 (runtimeStoryTruncated) records; without one, drops are only counted. */
  readonly logger?: Logger;
  /**
   * Drops between two 3006 records: the first drop is logged, then one record each time the running total
   * of dropped entries reaches another multiple of this. Default: the story's maxEntries, so at most one
   * record per full turnover of the timeline, however busy the engine is.
   */
  readonly dropLogEvery?: number;
}

/**
 * The ordered lifecycle narrative, bounded: when full, the oldest entries are dropped and counted. Dropped
 * entries are gone: the count says how many, not which.
 */
export class RuntimeStory {
  private readonly entries: RuntimeStoryEntry[] = [];
  private sequence = 0;
  private dropped = 0;
  /** The dropped total at which the next 3006 record is due. */
  private nextDropLogAt = 1;
  private readonly dropLogEvery: number;

  constructor(
    private readonly clock: Clock,
    readonly maxEntries: number,
    private readonly onEntry: (entry: RuntimeStoryEntry) => void = () => {},
    private readonly options: RuntimeStoryOptions = {},
  ) {
    this.dropLogEvery = Math.max(1, Math.floor(options.dropLogEvery ?? maxEntries));
  }

  record(entry: Omit<RuntimeStoryEntry, 'sequence' | 'atUtc'>): RuntimeStoryEntry {
    const complete: RuntimeStoryEntry = {
      sequence: ++this.sequence,
      atUtc: isoAt(this.clock.now()),
      ...entry,
    };
    this.entries.push(complete);
    if (this.entries.length > this.maxEntries) {
      const excess = this.entries.length - this.maxEntries;
      this.entries.splice(0, excess);
      this.dropped += excess;
      this.logDrops();
    }
    this.onEntry(complete);
    return complete;
  }

  timeline(): readonly RuntimeStoryEntry[] {
    return [...this.entries];
  }

  get droppedEntries(): number {
    return this.dropped;
  }

  private logDrops(): void {
    if (this.dropped < this.nextDropLogAt) return;
    const first = this.nextDropLogAt === 1;
    this.nextDropLogAt = (Math.floor(this.dropped / this.dropLogEvery) + 1) * this.dropLogEvery;
    this.options.logger?.log({
      level: first ? 'warn' : 'info',
      eventId: observabilityEventIds.runtimeStoryTruncated,
      category: 'runtime-story',
      message: first
        ? `The runtime story is full (${this.maxEntries} entries): dropping the oldest entries from now on; the next record after ${this.nextDropLogAt} dropped in all`
        : `The runtime story has dropped ${this.dropped} entries in all (keeps ${this.maxEntries})`,
      droppedEntries: this.dropped,
      maxEntries: this.maxEntries,
    });
  }
}
