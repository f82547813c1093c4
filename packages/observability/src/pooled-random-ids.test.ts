import { randomFillSync } from 'node:crypto';
import { PooledRandomIdGenerator } from './pooled-random-ids';

describe('PooledRandomIdGenerator', () => {
  it('makes lowercase hex ids of 32 and 16 digits, none repeated across several pool refills', () => {
    let refills = 0;
    const ids = new PooledRandomIdGenerator((buffer) => {
      refills++;
      return randomFillSync(buffer);
    });
    const seen = new Set<string>();
    for (let index = 0; index < 2_000; index++) {
      const traceId = ids.generateTraceId();
      const spanId = ids.generateSpanId();
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
      seen.add(traceId).add(spanId);
    }
    expect(seen.size).toBe(4_000);
    // 2,000 × 24 bytes from pools of 4,096 bytes: the pool was refilled, never once per id.
    expect(refills).toBeGreaterThan(1);
    expect(refills).toBeLessThan(20);
  });

  it('skips an all-zero id (invalid in W3C Trace Context) and takes the next', () => {
    const fills = [(buffer: Buffer) => buffer.fill(0), (buffer: Buffer) => buffer.fill(0xab)];
    let call = 0;
    const ids = new PooledRandomIdGenerator((buffer) => fills[Math.min(call++, 1)]!(buffer));
    expect(ids.generateTraceId()).toBe('ab'.repeat(16));
    expect(ids.generateSpanId()).toBe('ab'.repeat(8));
  });

  it('reads the operating system random source by default', () => {
    const first = new PooledRandomIdGenerator();
    const second = new PooledRandomIdGenerator();
    expect(first.generateTraceId()).not.toBe(second.generateTraceId());
  });
});
