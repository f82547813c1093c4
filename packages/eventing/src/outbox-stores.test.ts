import { MemoryStoreProvider } from '@corekit/engine-core';
import type { EventMessage } from './eventing-model';
import { KeyedOutboxStore, type OutboxRecord } from './keyed-outbox-store';
import { MemoryOutboxStore } from './memory-outbox-store';
import type { OutboxStore } from './outbox-store';

const message = (id: string): EventMessage => ({
  publicationId: id,
  channelId: 'orders',
  eventType: 'order-placed',
  payload: { orderId: id },
  contentType: 'application/json',
  correlationId: null,
  tenantId: null,
  metadata: {},
  actorId: null,
  occurredAtUtc: '2026-01-01T00:00:00.000Z',
  headers: {},
});

/** Both outboxes settle in batches. */
type BatchOutbox = OutboxStore & Required<Pick<OutboxStore, 'completeMany' | 'release' | 'extend'>>;

interface Outboxes {
  readonly clock: { now: number };
  readonly first: BatchOutbox;
  readonly second: BatchOutbox;
}

const ids = (claims: ReadonlyArray<{ id: string }>) => claims.map((claim) => claim.id);

/** Two outbox handles for two dispatchers (two owners) sharing one outbox, with a clock the test moves. */
const kinds: ReadonlyArray<[string, () => Outboxes]> = [
  [
    'KeyedOutboxStore (two handles on one engine store)',
    () => {
      const clock = { now: 1_000_000 };
      const store = new MemoryStoreProvider().open<OutboxRecord>('outbox', { maxEntries: 10_000 });
      const make = () => new KeyedOutboxStore(store, 60_000, () => clock.now);
      return { clock, first: make(), second: make() };
    },
  ],
  [
    'MemoryOutboxStore (two owners in one process)',
    () => {
      const clock = { now: 1_000_000 };
      const outbox = new MemoryOutboxStore({ maxMessages: 10_000, now: () => clock.now });
      return { clock, first: outbox, second: outbox };
    },
  ],
];

describe.each(kinds)('%s', (_, outboxes) => {
  it('release gives a claim back at once with its attempt uncounted; only the owner releases', async () => {
    const { first, second } = outboxes();
    await first.stage(message('r-1'));
    const [claim] = await first.claim('owner-a', 10, 30_000);
    expect(claim).toMatchObject({ id: 'r-1', attempt: 1 });
    expect(await second.release('r-1', 'owner-b')).toBe(false);
    expect(await first.release('r-1', 'owner-a')).toBe(true);
    expect(await first.release('r-1', 'owner-a')).toBe(false);
    expect(await first.pendingCount()).toBe(1);
    const [again] = await second.claim('owner-b', 10, 30_000);
    expect(again).toMatchObject({ id: 'r-1', attempt: 1 });
    expect(await second.complete('r-1', 'owner-b')).toBe(true);
    expect(await first.pendingCount()).toBe(0);
  });

  it('claims in staging order past its own in-flight claims, never one message for two owners', async () => {
    const { first, second } = outboxes();
    for (let index = 0; index < 300; index += 1) await first.stage(message(`m-${index}`));
    const seen = new Set<string>();
    // Claims alternate between owners and are never settled meanwhile, so earlier claims sit in front.
    for (let round = 0; round < 6; round += 1) {
      const claims = await (round % 2 === 0 ? first : second).claim(`owner-${round % 2}`, 50, 30_000);
      expect(ids(claims)).toEqual(Array.from({ length: 50 }, (_, index) => `m-${round * 50 + index}`));
      for (const id of ids(claims)) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
    }
    expect(await first.claim('owner-0', 50, 30_000)).toEqual([]);
    expect(await first.completeMany(['m-0', 'm-1', 'm-50'], 'owner-0')).toEqual(['m-0', 'm-1']);
    expect(await second.completeMany(['m-50'], 'owner-1')).toEqual(['m-50']);
    expect(await first.pendingCount()).toBe(297);
  });

  it('a claim whose lease expired is claimed again, and the old owner can no longer settle it', async () => {
    const { clock, first, second } = outboxes();
    await first.stage(message('a'));
    expect(await first.claim('owner-a', 10, 1000)).toMatchObject([{ id: 'a', attempt: 1 }]);
    expect(await second.claim('owner-b', 10, 1000)).toEqual([]);
    clock.now += 1001;
    expect(await second.claim('owner-b', 10, 1000)).toMatchObject([{ id: 'a', attempt: 2 }]);
    expect(await first.completeMany(['a'], 'owner-a')).toEqual([]);
    expect(await first.complete('a', 'owner-a')).toBe(false);
    expect(await second.completeMany(['a'], 'owner-b')).toEqual(['a']);
    expect(await first.pendingCount()).toBe(0);
    // Completed: not claimable again, and staging the same publication id again keeps the one message.
    expect(await first.stage(message('a'))).toBe(false);
    clock.now += 5000;
    expect(await first.claim('owner-a', 10, 1000)).toEqual([]);
  });

  it('extend keeps held claims past their lease (nobody else claims them); a claim taken over is not extended', async () => {
    const { clock, first, second } = outboxes();
    await first.stage(message('a'));
    await first.stage(message('b'));
    expect(ids(await first.claim('owner-a', 10, 1000))).toEqual(['a', 'b']);
    for (let step = 0; step < 3; step++) {
      clock.now += 600;
      expect(await first.extend(['a', 'b'], 'owner-a', 1000)).toEqual(['a', 'b']);
      expect(await second.claim('owner-b', 10, 1000)).toEqual([]);
    }
    expect(await second.extend(['a'], 'owner-b', 1000)).toEqual([]);
    // 'b' lapses (no more renewal) and is taken over: its old owner can no longer extend or settle it.
    clock.now += 600;
    expect(await first.extend(['a'], 'owner-a', 1000)).toEqual(['a']);
    clock.now += 500;
    expect(ids(await second.claim('owner-b', 10, 1000))).toEqual(['b']);
    expect(await first.extend(['a', 'b'], 'owner-a', 1000)).toEqual(['a']);
    expect(await first.completeMany(['a', 'b'], 'owner-a')).toEqual(['a']);
    expect(await second.completeMany(['b'], 'owner-b')).toEqual(['b']);
  });

  it('an expired claim of its own that nobody took over still settles', async () => {
    const { clock, first } = outboxes();
    await first.stage(message('a'));
    await first.claim('owner-a', 10, 1000);
    clock.now += 5000;
    expect(await first.completeMany(['a'], 'owner-a')).toEqual(['a']);
  });

  it('a retried message waits for its time, keeps its attempts, then fails terminally and stays', async () => {
    const { clock, first } = outboxes();
    await first.stage(message('r'));
    await first.claim('owner', 10, 1000);
    expect(await first.retry('r', 'owner', new Date(clock.now + 500), 'down')).toBe(true);
    expect(await first.claim('owner', 10, 1000)).toEqual([]);
    clock.now += 500;
    const [again] = await first.claim('owner', 10, 1000);
    expect(again).toMatchObject({ id: 'r', attempt: 2, message: { payload: { orderId: 'r' } } });
    expect(await first.fail('r', 'owner', 'still down')).toBe(true);
    expect(await first.pendingCount()).toBe(0);
    expect(await first.stage(message('r'))).toBe(false);
  });
});

describe('MemoryOutboxStore', () => {
  const make = (maxMessages: number) => {
    const clock = { now: 1_000_000 };
    return {
      clock,
      outbox: new MemoryOutboxStore({ maxMessages, retainDispatchedMs: 1000, now: () => clock.now }),
    };
  };

  it('refuses staging beyond its bound with STORE_FULL, counting terminal failures, not dispatched ones', async () => {
    const { outbox } = make(2);
    await outbox.stage(message('a'));
    await outbox.stage(message('b'));
    await expect(outbox.stage(message('c'))).rejects.toMatchObject({ code: 'STORE_FULL' });
    await outbox.claim('o', 2, 1000);
    await outbox.fail('a', 'o', 'boom');
    expect(await outbox.completeMany(['b'], 'o')).toEqual(['b']);
    expect(await outbox.stage(message('c'))).toBe(true);
    await expect(outbox.stage(message('d'))).rejects.toMatchObject({ code: 'STORE_FULL' });
  });

  it('remembers dispatched ids for the retention window only', async () => {
    const { clock, outbox } = make(10);
    await outbox.stage(message('a'));
    await outbox.claim('o', 1, 1000);
    await outbox.complete('a', 'o');
    expect(await outbox.stage(message('a'))).toBe(false);
    clock.now += 1000;
    expect(await outbox.stage(message('a'))).toBe(true);
  });

  it('puts a retried message behind the messages staged before its retry', async () => {
    const { clock, outbox } = make(10);
    await outbox.stage(message('first'));
    await outbox.stage(message('second'));
    await outbox.claim('o', 1, 1000);
    await outbox.retry('first', 'o', new Date(clock.now), 'down');
    expect(ids(await outbox.claim('o', 5, 1000))).toEqual(['second', 'first']);
  });

  it('keeps order and loses nothing across thousands of messages while its queue drops the settled front', async () => {
    const { clock, outbox } = make(10_000);
    for (let index = 0; index < 3000; index += 1) await outbox.stage(message(`m-${index}`));
    const order: string[] = [];
    for (let round = 0; ; round += 1) {
      const claims = await outbox.claim('o', 100, 1000);
      if (claims.length === 0) break;
      // Every fifth round sends its first message back for a retry: it comes again after the rest.
      const [first, ...rest] = claims;
      if (round % 5 === 0 && first!.attempt === 1) {
        await outbox.retry(first!.id, 'o', new Date(clock.now), 'busy');
        expect(await outbox.completeMany(ids(rest), 'o')).toEqual(ids(rest));
        order.push(...ids(rest));
      } else {
        expect(await outbox.completeMany(ids(claims), 'o')).toEqual(ids(claims));
        order.push(...ids(claims));
      }
    }
    expect(order).toHaveLength(3000);
    expect(new Set(order).size).toBe(3000);
    expect(await outbox.pendingCount()).toBe(0);
    const firstAttempts = order.filter((id) => !['m-0', 'm-500', 'm-1000'].includes(id));
    expect(firstAttempts.slice(0, 3)).toEqual(['m-1', 'm-2', 'm-3']);
    expect(order.indexOf('m-0')).toBeGreaterThan(order.indexOf('m-100'));
  });
});
