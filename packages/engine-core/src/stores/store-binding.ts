import {
  assertValidStoreName,
  CoreError,
  resolveStoreMaxEntries,
  resolveStoreSchema,
  versionedStore,
  type KeyedStore,
  type ListOptions,
  type PutOptions,
  type PutResult,
  type StoreChangeListener,
  type StoreChangeSubscription,
  type StoredRecord,
  type StoreOptions,
  type StoreProvider,
  type StoreProviderTraits,
} from '@corekit/abstractions';
import { resolveStoreProvider, type StoreProviderContext, type StoresOptions } from './store-options';
import { StoreSchemaCheck } from './store-schema-check';

/** What the binding needs from the builder. */
export interface StoreBindingOptions extends StoreProviderContext {
  /** Binds `Engine:Stores` (called once, when the provider is bound). */
  readonly settings: () => StoresOptions;
}

interface Bound {
  readonly provider: StoreProvider;
  readonly defaultMaxEntries: number;
  /** `Engine:Stores:ChangeFeed`. */
  readonly changeFeed: StoresOptions['ChangeFeed'];
}

/**
 * The engine's one store provider, chosen by the end of registration whatever the order of the calls:
 * `openStore` hands back a handle that opens its store on the provider the first time it is used, so
 * `addEventing(builder); addPostgresStores(builder)` serves eventing from PostgreSQL. The provider is bound
 * (and `Engine:Stores` checked against it) by the first store use, `storeTraits()` or `build()`; installing a
 * provider after that is refused, as is installing a second one.
 */
export class StoreBinding {
  private installed: StoreProvider | undefined;
  private bound: Bound | undefined;
  private boundBy: string | undefined;
  /** Every opened store's schema version, checked when the engine starts. */
  readonly schemas = new StoreSchemaCheck();

  constructor(private readonly options: StoreBindingOptions) {}

  /** `builder.useStoreProvider`. */
  install(provider: StoreProvider): void {
    if (this.bound) {
      throw new CoreError(
        'STORE_PROVIDER_ALREADY_BOUND',
        `useStoreProvider(${provider.kind}) came after the store provider was bound by ${this.boundBy} (to ${this.bound.provider.kind}): add the store provider (addPostgresStores, addRedisStores, useStoreProvider) before build(), and do not use a store or read storeTraits() during registration.`,
        { installed: provider.kind, bound: this.bound.provider.kind },
      );
    }
    if (this.installed && this.installed !== provider) {
      throw new CoreError(
        'STORE_PROVIDER_CONFLICT',
        `A ${this.installed.kind} store provider is already installed; useStoreProvider(${provider.kind}) would replace it. An engine has one store provider: install only one.`,
        { installed: this.installed.kind, requested: provider.kind },
      );
    }
    this.installed = provider;
  }

  /**
   * `builder.openStore`: checks the name and options now, opens on the final provider at first use. Records
   * are kept with their schema version (`versionedStore`), migrated on read.
   */
  open<T>(name: string, options?: StoreOptions): KeyedStore<T> {
    assertValidStoreName(name);
    if (options?.maxEntries !== undefined) resolveStoreMaxEntries(name, options, 1);
    const schema = resolveStoreSchema(name, options);
    const stored = boundStore<unknown>(name, options, () => this.bind('a store method'));
    this.schemas.add(stored, schema);
    return { ...versionedStore<T>(stored, schema), watch: stored.watch };
  }

  /** `builder.storeTraits()`: binds the provider and answers its traits (its change feed when switched on). */
  traits(): StoreProviderTraits {
    const { provider, changeFeed } = this.bind('storeTraits()');
    const { kind, durable, shared } = provider;
    return changeFeed.Enabled && provider.changeFeed
      ? { kind, durable, shared, changeFeed: provider.changeFeed }
      : { kind, durable, shared };
  }

  /** Binds the provider (at `build()` at the latest) and answers it with the default bound. */
  bind(by: string): Bound {
    if (!this.bound) {
      const settings = this.options.settings();
      const provider = resolveStoreProvider(settings, this.installed, this.options);
      this.bound = { provider, defaultMaxEntries: settings.MaxEntries, changeFeed: settings.ChangeFeed };
      this.boundBy = by;
    }
    return this.bound;
  }

  /** Closes the bound provider (pools, clients); called when the engine stops. Nothing bound: nothing to do. */
  async close(): Promise<void> {
    await this.bound?.provider.close?.();
  }
}

/**
 * A store handle that opens the real store on the bound provider when first used; every later call goes
 * straight to it. Every store method is async, so binding late changes nothing a caller can see.
 */
function boundStore<T>(name: string, options: StoreOptions | undefined, bind: () => Bound): KeyedStore<T> {
  let opened: KeyedStore<T> | undefined;
  const target = (): KeyedStore<T> => {
    if (!opened) {
      const { provider, defaultMaxEntries } = bind();
      opened = provider.open<T>(name, { ...options, maxEntries: options?.maxEntries ?? defaultMaxEntries });
    }
    return opened;
  };
  return {
    name,
    get: async (key: string): Promise<StoredRecord<T> | undefined> => target().get(key),
    list: async (listOptions?: ListOptions): Promise<readonly StoredRecord<T>[]> =>
      target().list(listOptions),
    put: async (key: string, value: T, putOptions?: PutOptions): Promise<PutResult<T>> =>
      target().put(key, value, putOptions),
    delete: async (key: string, deleteOptions?: { readonly expectedVersion?: number }): Promise<boolean> =>
      target().delete(key, deleteOptions),
    count: async (): Promise<number> => target().count(),
    watch: (listener: StoreChangeListener): StoreChangeSubscription | undefined => {
      const { changeFeed } = bind();
      const inner = changeFeed.Enabled ? target().watch?.(listener) : undefined;
      if (!inner) return undefined;
      return {
        state: () => inner.state(),
        fullReadIntervalMs: changeFeed.FullReadIntervalSeconds * 1000,
        close: () => inner.close(),
      };
    },
  };
}
