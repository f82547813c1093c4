import { MemoryStoreProvider } from '@corekit/engine-core';
import type { EventMessage } from './eventing-model';
import { KeyedOutboxStore, type OutboxRecord } from './keyed-outbox-store';

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

/** Two outbox handles on one store (two dispatchers sharing it), with a clock the test moves. */
function outboxes() {
  const clock = { now: 1_000_000 };
  const store = new MemoryStoreProvider().open<OutboxRecord>('outbox', { maxEntries: 10_000 });
  const make = () => new KeyedOutboxStore(store, 60_000, () => clock.now);
  return { clock, first: make(), second: make() };
}

const ids = (claims: ReadonlyArray<{ id: string }>) => claims.map((claim) => claim.id);

describe('KeyedOutboxStore', () => {
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
