import type { KeyedStore, PutOptions, StoredRecord } from './stores';
import { keepLeaseRenewed, LeaseLostError, StoreLeases, type LeaseRecord } from './store-leases';

// The renewal loop every lease user shares, on jest's fake timers: time moves only when the test advances it,
// and the lease clock is the same fake clock (Date.now), so nothing here waits for real time.

/** A versioned in-memory keyed store (compare-and-set as every provider does it) that can be made unavailable. */
function versionedStore<T>(): KeyedStore<T> & { unavailable: boolean } {
  const records = new Map<string, StoredRecord<T>>();
  const reachable = () => {
    if (store.unavailable)
      throw Object.assign(new Error('connection refused'), { code: 'STORE_UNAVAILABLE' });
  };
  const store = {
    name: 'leases',
    unavailable: false,
    async get(key: string) {
      reachable();
      return records.get(key);
    },
    async list() {
      reachable();
      return [...records.values()];
    },
    async put(key: string, value: T, options?: PutOptions) {
      reachable();
      const current = records.get(key) ?? null;
      if (options?.expectedVersion !== undefined && (current?.version ?? 0) !== options.expectedVersion) {
        return { written: false as const, current };
      }
      const record = {
        key,
        value,
        version: (current?.version ?? 0) + 1,
        updatedAtUtc: new Date().toISOString(),
      };
      records.set(key, record);
      return { written: true as const, record };
    },
    async delete(key: string, options?: { expectedVersion?: number }) {
      reachable();
      const current = records.get(key);
      if (!current || (options?.expectedVersion !== undefined && current.version !== options.expectedVersion))
        return false;
      return records.delete(key);
    },
    async count() {
      return records.size;
    },
  };
  return store;
}

const leaseMs = 300;

async function held(store: KeyedStore<LeaseRecord>, owner = 'replica-a') {
  const leases = new StoreLeases(store);
  const acquired = await leases.acquire('reindex:docs', owner, 'run-1', leaseMs);
  if (!acquired.acquired) throw new Error('not acquired');
  return { leases, record: acquired.record };
}

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('a lease kept renewed while its work runs', () => {
  it('work three times longer than the lease keeps it: no other replica can take it, and it releases after', async () => {
    const store = versionedStore<LeaseRecord>();
    const { leases, record } = await held(store);
    const kept = leases.keep(record, leaseMs);
    const other = new StoreLeases(store);
    await jest.advanceTimersByTimeAsync(3 * leaseMs);
    expect(kept.held()).toBe(true);
    expect(kept.signal.aborted).toBe(false);
    expect(kept.record().version).toBeGreaterThanOrEqual(record.version + 8);
    expect(await other.acquire('reindex:docs', 'replica-b', 'run-2', leaseMs)).toMatchObject({
      acquired: false,
      holder: { owner: 'replica-a' },
    });
    const [lapsed] = await other.list();
    expect(await other.takeOver(lapsed, 'replica-b', leaseMs)).toBeNull();
    await kept.stop();
    expect(await leases.release(kept.record())).toBe(true);
    expect(await other.acquire('reindex:docs', 'replica-b', 'run-2', leaseMs)).toMatchObject({
      acquired: true,
    });
  });

  it('a renewal refused by compare-and-set loses the hold at once: signal aborted, held() false', async () => {
    const store = versionedStore<LeaseRecord>();
    const { leases, record } = await held(store);
    const kept = leases.keep(record, leaseMs);
    // Another owner wrote the record (it took the work over after a pause of this holder).
    await store.put('reindex:docs', { ...record.value, owner: 'replica-b' });
    await jest.advanceTimersByTimeAsync(leaseMs / 3);
    expect(kept.held()).toBe(false);
    expect(kept.lostReason).toBe('taken-over');
    expect(kept.signal.aborted).toBe(true);
    expect(kept.signal.reason).toBeInstanceOf(LeaseLostError);
    expect(kept.signal.reason).toMatchObject({ code: 'LEASE_LOST', reason: 'taken-over' });
    await kept.stop();
    expect(await leases.release(kept.record())).toBe(false); // the new owner's record stays
    expect((await store.get('reindex:docs'))?.value.owner).toBe('replica-b');
  });

  it('renewals that fail (store unavailable) keep the hold until its expiry, then lose it as expired', async () => {
    const store = versionedStore<LeaseRecord>();
    const { leases, record } = await held(store);
    const failures: unknown[] = [];
    const kept = leases.keep(record, leaseMs, { onRenewalFailure: (error) => failures.push(error) });
    store.unavailable = true;
    await jest.advanceTimersByTimeAsync(leaseMs - 1);
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(kept.held()).toBe(true);
    await jest.advanceTimersByTimeAsync(1);
    expect(kept.held()).toBe(false);
    expect(kept.lostReason).toBe('expired');
    expect(kept.signal.aborted).toBe(true);
    await kept.stop();
  });

  it('stop() ends the renewals: the lease then lapses on its own', async () => {
    const store = versionedStore<LeaseRecord>();
    const { leases, record } = await held(store);
    const kept = leases.keep(record, leaseMs);
    await jest.advanceTimersByTimeAsync(leaseMs);
    await kept.stop();
    const version = kept.record().version;
    await jest.advanceTimersByTimeAsync(2 * leaseMs);
    expect((await store.get('reindex:docs'))?.version).toBe(version);
    expect(await new StoreLeases(store).acquire('reindex:docs', 'replica-b', 'run-2', leaseMs)).toMatchObject(
      {
        acquired: true,
        record: { value: { takenOverFrom: 'replica-a' } },
      },
    );
  });

  it('keepLeaseRenewed works for any lease shape: the caller says how to renew', async () => {
    let expiresAtMs = Date.now() + leaseMs;
    let renewals = 0;
    const kept = keepLeaseRenewed({
      expiresAtMs,
      renewEveryMs: 100,
      renew: async () => {
        renewals += 1;
        expiresAtMs = Date.now() + leaseMs;
        return renewals < 4 ? expiresAtMs : null;
      },
    });
    await jest.advanceTimersByTimeAsync(350);
    expect(kept.held()).toBe(true);
    await jest.advanceTimersByTimeAsync(100);
    expect(kept.held()).toBe(false);
    expect(renewals).toBe(4);
    await jest.advanceTimersByTimeAsync(1000);
    expect(renewals).toBe(4); // no renewal after the hold was lost
    await kept.stop();
  });
});
