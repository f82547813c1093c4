import { MemoryStoreProvider } from './memory-store';
import { describeStoreContract } from '@corekit/testing/store-contract-suite';

describeStoreContract('MemoryStoreProvider', (options) => new MemoryStoreProvider(options));

describe('MemoryStoreProvider', () => {
  it('says what it is: memory, not durable, not shared', () => {
    expect(new MemoryStoreProvider()).toMatchObject({ kind: 'memory', durable: false, shared: false });
  });

  it('keeps values JSON cannot (structured clone), copied', async () => {
    const store = new MemoryStoreProvider().open<{ at: Date; ids: Set<number> }>('rich');
    const at = new Date('2026-01-02T03:04:05Z');
    await store.put('a', { at, ids: new Set([1, 2]) });
    const read = await store.get('a');
    expect(read?.value.at).toEqual(at);
    expect(read?.value.at).not.toBe(at);
    expect([...read!.value.ids]).toEqual([1, 2]);
  });
});
