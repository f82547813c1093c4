/**
 * The newest `capacity` entries by last write: writing a key makes it the newest, and a write past the
 * capacity drops the oldest. Iteration runs oldest first.
 *
 * Dropping through `map.keys().next()` looks O(1) but is not: every delete leaves a hole at the front of the
 * map's table until the table is rebuilt, and the iterator walks over the holes, so each drop costs in
 * proportion to the capacity (about 6 µs per write at 10 000 entries). Here a queue of (key, write number)
 * remembers the write order; a queued write the key has since been written over is skipped, so each write
 * costs the same at any capacity.
 */
export class RecentEntries<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly write: number }>();
  private order: Array<{ readonly key: string; readonly write: number }> = [];
  private head = 0;
  private writes = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Writes remembered in the order queue (live and replaced): what it holds beyond `size`, bounded. */
  get queuedWrites(): number {
    return this.order.length - this.head;
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    const write = ++this.writes;
    this.entries.delete(key);
    this.entries.set(key, { value, write });
    this.order.push({ key, write });
    while (this.entries.size > this.capacity) {
      const oldest = this.order[this.head++]!;
      if (this.entries.get(oldest.key)?.write === oldest.write) this.entries.delete(oldest.key);
    }
    // The queue also holds writes a key has since replaced: compact it once they are most of it.
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    } else if (this.order.length > 4 * this.capacity + 1024) {
      this.order = this.order
        .slice(this.head)
        .filter(({ key, write }) => this.entries.get(key)?.write === write);
      this.head = 0;
    }
  }

  values(): V[] {
    return [...this.entries.values()].map((entry) => entry.value);
  }
}
