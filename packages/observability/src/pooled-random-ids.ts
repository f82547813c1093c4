import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

/** Random bytes drawn from the operating system per refill: 256 trace ids or 512 span ids. */
const poolBytes = 4096;

const allZero = { 16: '0'.repeat(16), 32: '0'.repeat(32) } as const;

/**
 * Trace and span ids from the operating system's cryptographic random source, cut from a pool of hex digits
 * refilled 4 KB at a time. The SDK's default draws each id from `Math.random()` and formats it with one
 * `Buffer#toString('hex')` call per id: three per traced request, about 0.5 µs in all, on every request whether
 * or not its trace is recorded. Here a request's ids are three substring cuts (about a fifth of that), and
 * the ids are unpredictable, as the W3C Trace Context recommends. An all-zero id, which is invalid, is skipped.
 * `fill` is the random source (a test passes its own).
 */
export class PooledRandomIdGenerator implements IdGenerator {
  private pool = '';
  private offset = 0;

  constructor(private readonly fill: (buffer: Buffer) => Buffer = randomFillSync) {}

  generateTraceId(): string {
    return this.take(32);
  }

  generateSpanId(): string {
    return this.take(16);
  }

  private take(length: 16 | 32): string {
    for (;;) {
      if (this.offset + length > this.pool.length) {
        this.pool = this.fill(Buffer.allocUnsafe(poolBytes)).toString('hex');
        this.offset = 0;
      }
      const id = this.pool.slice(this.offset, this.offset + length);
      this.offset += length;
      if (id !== allZero[length]) return id;
    }
  }
}
