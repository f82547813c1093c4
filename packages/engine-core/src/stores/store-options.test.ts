import { bindValue } from '../configuration-store';
import { manualClock } from '../clock';
import { FileStoreProvider } from './file-store';
import { MemoryStoreProvider } from './memory-store';
import { createStoreProvider, storesOptionsSchema } from './store-options';

const context = { contentRoot: '/srv/app', clock: manualClock() };

describe('Engine:Stores', () => {
  it('defaults to the memory provider with a bound of 10000', async () => {
    const settings = bindValue('Engine:Stores', storesOptionsSchema, {});
    expect(settings).toEqual({
      MaxEntries: 10000,
      ChangeFeed: { Enabled: true, FullReadIntervalSeconds: 300 },
    });
    expect(createStoreProvider(settings, context)).toBeInstanceOf(MemoryStoreProvider);
  });

  it('requires Directory for the file provider and resolves it against the content root', () => {
    expect(() => bindValue('Engine:Stores', storesOptionsSchema, { Provider: 'File' })).toThrow(
      /Engine:Stores:Directory/,
    );
    const settings = bindValue('Engine:Stores', storesOptionsSchema, {
      provider: 'file',
      Directory: 'state',
    });
    const provider = createStoreProvider(settings, context) as FileStoreProvider;
    expect(provider).toBeInstanceOf(FileStoreProvider);
    expect(provider.fileOf('leases')).toBe('/srv/app/state/leases.json');
    const absolute = createStoreProvider(
      { ...settings, Directory: '/var/lib/core' },
      context,
    ) as FileStoreProvider;
    expect(absolute.directory).toBe('/var/lib/core');
  });

  it('refuses a non-positive MaxEntries and an unknown key', () => {
    expect(() => bindValue('Engine:Stores', storesOptionsSchema, { MaxEntries: 0 })).toThrow(/MaxEntries/);
    expect(() => bindValue('Engine:Stores', storesOptionsSchema, { MaxEntrys: 5 })).toThrow(/MaxEntrys/);
  });

  it('hands MaxEntries to the provider as the bound of stores opened without one', async () => {
    const provider = createStoreProvider({ Provider: 'Memory', MaxEntries: 1 }, context);
    const store = provider.open<number>('small');
    await store.put('a', 1);
    await expect(store.put('b', 2)).rejects.toMatchObject({ code: 'STORE_FULL' });
  });
});
