import type { KeyedStore, StoreOptions, StoreProvider } from '@corekit/abstractions';
import { testBuilder } from '../testing-support/engine-fixtures';
import { MemoryStoreProvider } from './memory-store';

/** A shared-looking provider over memory that records what it was asked. */
class RecordingProvider implements StoreProvider {
  readonly durable = true;
  readonly shared = true;
  readonly opened: Array<{ name: string; options?: StoreOptions }> = [];
  closed = 0;
  private readonly memory = new MemoryStoreProvider();

  constructor(readonly kind = 'postgresql') {}

  open<T>(name: string, options?: StoreOptions): KeyedStore<T> {
    this.opened.push({ name, ...(options ? { options } : {}) });
    return this.memory.open<T>(name, options);
  }

  async close(): Promise<void> {
    this.closed += 1;
  }
}

async function codeOf(action: () => unknown): Promise<string | undefined> {
  try {
    await action();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('store provider binding', () => {
  it('serves a store opened before useStoreProvider from the provider installed later', async () => {
    const { builder } = testBuilder();
    const early = builder.openStore<number>('early', { maxEntries: 5 });
    const provider = new RecordingProvider();
    builder.useStoreProvider(provider);
    builder.build();
    await early.put('a', 1);
    expect(provider.opened).toEqual([{ name: 'early', options: { maxEntries: 5 } }]);
    expect((await builder.openStore<number>('early').get('a'))?.value).toBe(1);
    expect(builder.storeTraits()).toEqual({ kind: 'postgresql', durable: true, shared: true });
  });

  it('answers storeTraits() with the default Memory provider when none was installed', () => {
    const { builder } = testBuilder();
    builder.build();
    expect(builder.storeTraits()).toEqual({
      kind: 'memory',
      durable: false,
      shared: false,
      changeFeed: { version: 1, path: 'in-process' },
    });
  });

  it('hands out the change feed with the safety-net interval of Engine:Stores:ChangeFeed, or none when it is switched off', async () => {
    const listener = { change: () => undefined };
    const on = testBuilder({
      configuration: { Engine: { Stores: { ChangeFeed: { FullReadIntervalSeconds: 60 } } } },
    }).builder;
    on.build();
    const subscription = on.openStore<number>('watched').watch?.(listener);
    expect(subscription?.fullReadIntervalMs).toBe(60_000);
    expect(subscription?.state()).toMatchObject({ path: 'in-process', connected: true });
    subscription?.close();

    const off = testBuilder({
      configuration: { Engine: { Stores: { ChangeFeed: { Enabled: false } } } },
    }).builder;
    off.build();
    expect(off.storeTraits().changeFeed).toBeUndefined();
    expect(off.openStore<number>('watched').watch?.(listener)).toBeUndefined();

    const typo = testBuilder({
      configuration: { Engine: { Stores: { ChangeFeed: { Enable: false } } } },
    }).builder;
    expect(() => typo.build()).toThrow(/ChangeFeed.*Enable/);
  });

  it('hands Engine:Stores:MaxEntries to an installed provider for stores opened without a bound', async () => {
    const { builder } = testBuilder({ configuration: { Engine: { Stores: { MaxEntries: 1 } } } });
    const provider = new RecordingProvider();
    builder.useStoreProvider(provider);
    const store = builder.openStore<number>('small');
    builder.build();
    await store.put('a', 1);
    await expect(store.put('b', 2)).rejects.toMatchObject({ code: 'STORE_FULL' });
    expect(provider.opened[0].options?.maxEntries).toBe(1);
  });

  it('refuses useStoreProvider after build() with a message saying where it belongs', () => {
    const { builder } = testBuilder();
    builder.build();
    expect(() => builder.useStoreProvider(new RecordingProvider())).toThrow(
      /useStoreProvider\(postgresql\) was called after build\(\).*before build\(\)/,
    );
  });

  it('refuses a provider installed after the binding was fixed by storeTraits() or a store use', async () => {
    const { builder } = testBuilder();
    expect(builder.storeTraits().kind).toBe('memory');
    expect(await codeOf(() => builder.useStoreProvider(new RecordingProvider()))).toBe(
      'STORE_PROVIDER_ALREADY_BOUND',
    );
    const other = testBuilder().builder;
    await other.openStore<number>('used').put('a', 1);
    expect(() => other.useStoreProvider(new RecordingProvider())).toThrow(/bound by a store method/);
  });

  it('refuses a second, different provider (one provider per engine)', async () => {
    const { builder } = testBuilder();
    const provider = new RecordingProvider();
    builder.useStoreProvider(provider);
    builder.useStoreProvider(provider);
    expect(await codeOf(() => builder.useStoreProvider(new RecordingProvider('redis')))).toBe(
      'STORE_PROVIDER_CONFLICT',
    );
  });

  it('validates the store name and bound when openStore is called, not later', async () => {
    const { builder } = testBuilder();
    expect(await codeOf(() => builder.openStore('../bad'))).toBe('STORE_KEY_INVALID');
    expect(() => builder.openStore('zero', { maxEntries: 0 })).toThrow(RangeError);
  });
});

describe('Engine:Stores against the installed provider', () => {
  const buildWith = (stores: Record<string, unknown>, provider?: StoreProvider) => {
    const { builder } = testBuilder({ configuration: { Engine: { Stores: stores } } });
    if (provider) builder.useStoreProvider(provider);
    return () => builder.build();
  };

  it('refuses Provider: File when a package installed the PostgreSQL provider', () => {
    expect(buildWith({ Provider: 'File', Directory: 'x' }, new RecordingProvider())).toThrow(
      /Engine:Stores:Provider is File, but a package installed the postgresql store provider \(addPostgresStores\(builder\)\): set it to PostgreSql or remove it/,
    );
  });

  it('accepts Provider naming the installed provider, and no Provider at all', () => {
    expect(buildWith({ Provider: 'PostgreSql' }, new RecordingProvider())).not.toThrow();
    expect(buildWith({ Provider: 'redis' }, new RecordingProvider('redis'))).not.toThrow();
    expect(buildWith({}, new RecordingProvider())).not.toThrow();
  });

  it('refuses Provider: PostgreSql or Redis without the package that adds it, naming the call', () => {
    expect(buildWith({ Provider: 'PostgreSql' })).toThrow(
      /no PostgreSql store provider was added: call addPostgresStores\(builder\) from @corekit\/store-postgres/,
    );
    expect(buildWith({ Provider: 'Redis' })).toThrow(/addRedisStores\(builder\) from @corekit\/store-redis/);
  });

  it('refuses a provider section or a Directory that would not apply, instead of an unknown-key error', () => {
    expect(buildWith({ PostgreSql: { ConnectionString: 'postgres://x' } })).toThrow(
      /Engine:Stores:PostgreSql is configured, but the store provider is memory: call addPostgresStores/,
    );
    expect(buildWith({ Redis: { Url: 'redis://x' } }, new RecordingProvider())).toThrow(
      /Engine:Stores:Redis is configured, but the store provider is postgresql/,
    );
    expect(buildWith({ Directory: 'state' }, new RecordingProvider())).toThrow(
      /Engine:Stores:Directory applies to the File provider only/,
    );
  });
});

describe('store provider shutdown', () => {
  it('closes the provider when the engine stops, not on a restart', async () => {
    const { builder } = testBuilder();
    const provider = new RecordingProvider();
    builder.useStoreProvider(provider);
    const engine = builder.build();
    await engine.start();
    await engine.restart();
    expect(provider.closed).toBe(0);
    await engine.stop();
    expect(provider.closed).toBe(1);
  });

  it('keeps memory records across a stop and a start', async () => {
    const { builder } = testBuilder();
    const store = builder.openStore<number>('kept');
    const engine = builder.build();
    await engine.start();
    await store.put('a', 1);
    await engine.stop();
    await engine.start();
    expect((await store.get('a'))?.value).toBe(1);
    await engine.stop();
  });
});
