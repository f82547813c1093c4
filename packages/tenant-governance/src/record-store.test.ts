import type { KeyedStore, ListOptions } from '@corekit/abstractions';
import { MemoryStoreProvider } from '@corekit/engine-core';
import { RecordStore } from './record-store';

interface Item {
  readonly name: string;
}

/** A store whose `list` answers only when the test lets it (a reload still in flight). */
function heldListing(store: KeyedStore<Item>) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const wrapped: KeyedStore<Item> = {
    name: store.name,
    get: (key) => store.get(key),
    put: (key, value, options) => store.put(key, value, options),
    delete: (key, options) => store.delete(key, options),
    count: () => store.count(),
    async list(options?: ListOptions) {
      const records = await store.list(options);
      await held;
      return records;
    },
  };
  return { store: wrapped, release: () => release() };
}

describe('RecordStore summaries', () => {
  it('a reload keeps what this process wrote or deleted while the reload was listing the store', async () => {
    const backing = new MemoryStoreProvider().open<Item>('items');
    await backing.put('kept', { name: 'kept' });
    await backing.put('gone', { name: 'gone' });
    const listing = heldListing(backing);
    const records = new RecordStore(listing.store);
    const reload = records.load();
    // While the listing (which saw `kept` and `gone` only) is in flight, this process writes and deletes.
    await records.write('added', { name: 'added' }, 0);
    await records.delete('gone', 1);
    listing.release();
    await reload;
    expect(
      records
        .values()
        .map((item) => item.name)
        .sort(),
    ).toEqual(['added', 'kept']);
  });

  it('a reload drops records another writer deleted and adds those it wrote', async () => {
    const backing = new MemoryStoreProvider().open<Item>('items');
    const records = new RecordStore(backing);
    await records.write('mine', { name: 'mine' }, 0);
    await backing.put('theirs', { name: 'theirs' });
    await backing.delete('mine');
    expect(records.values().map((item) => item.name)).toEqual(['mine']);
    await records.load();
    expect(records.values().map((item) => item.name)).toEqual(['theirs']);
  });
});
