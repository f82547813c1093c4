/** Keys a chunk holds before it is split in two. */
const maxChunk = 512;

/**
 * A set of strings kept in ascending order as a list of sorted chunks (each at most `maxChunk` long), so
 * adding or deleting one key costs a binary search and a splice inside one chunk, and listing from a point
 * starts at the right chunk: no re-sort after an insert and no walk over deleted keys.
 */
export class SortedKeys {
  private readonly chunks: string[][];
  /** The last (greatest) key of each chunk, to find a chunk by binary search. */
  private readonly lasts: string[];

  private constructor(chunks: string[][]) {
    this.chunks = chunks;
    this.lasts = chunks.map((chunk) => chunk[chunk.length - 1]!);
  }

  /** The keys of `keys` (no duplicates) in order. */
  static of(keys: Iterable<string>): SortedKeys {
    const sorted = [...keys].sort();
    const chunks: string[][] = [];
    for (let start = 0; start < sorted.length; start += maxChunk / 2) {
      chunks.push(sorted.slice(start, start + maxChunk / 2));
    }
    return new SortedKeys(chunks);
  }

  /** An independent copy (chunks are mutated in place). */
  clone(): SortedKeys {
    return new SortedKeys(this.chunks.map((chunk) => [...chunk]));
  }

  /** Adds a key that is not present yet. */
  add(key: string): void {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.lasts.push(key);
      return;
    }
    // The first chunk whose last key is not below the new one, or the last chunk when the key is the greatest.
    const at = Math.min(lowerBound(this.lasts, key), this.chunks.length - 1);
    const chunk = this.chunks[at]!;
    chunk.splice(lowerBound(chunk, key), 0, key);
    this.lasts[at] = chunk[chunk.length - 1]!;
    if (chunk.length > maxChunk) {
      const upper = chunk.splice(maxChunk / 2);
      this.chunks.splice(at + 1, 0, upper);
      this.lasts.splice(at, 1, chunk[chunk.length - 1]!, upper[upper.length - 1]!);
    }
  }

  /** Removes a key; nothing happens when it is absent. */
  delete(key: string): void {
    const at = lowerBound(this.lasts, key);
    const chunk = this.chunks[at];
    if (!chunk) return;
    const index = lowerBound(chunk, key);
    if (chunk[index] !== key) return;
    chunk.splice(index, 1);
    if (chunk.length === 0) {
      this.chunks.splice(at, 1);
      this.lasts.splice(at, 1);
    } else {
      this.lasts[at] = chunk[chunk.length - 1]!;
    }
  }

  /** Every key not below `start`, ascending. Do not add or delete keys while iterating. */
  *from(start: string): Generator<string> {
    let at = lowerBound(this.lasts, start);
    if (at >= this.chunks.length) return;
    for (let index = lowerBound(this.chunks[at]!, start); at < this.chunks.length; at += 1, index = 0) {
      const chunk = this.chunks[at]!;
      for (; index < chunk.length; index += 1) yield chunk[index]!;
    }
  }
}

/** Index of the first element of sorted `values` not below `key`. */
function lowerBound(values: readonly string[], key: string): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}
