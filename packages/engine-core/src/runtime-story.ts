import type { RuntimeStoryEntry } from '@corekit/abstractions';
import { isoAt, type Clock } from './clock';

/** The ordered lifecycle narrative, bounded: when full, the oldest entries are dropped and counted. */
export class RuntimeStory {
  private readonly entries: RuntimeStoryEntry[] = [];
  private sequence = 0;
  private dropped = 0;

  constructor(
    private readonly clock: Clock,
    readonly maxEntries: number,
    private readonly onEntry: (entry: RuntimeStoryEntry) => void = () => {},
  ) {}

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
}
