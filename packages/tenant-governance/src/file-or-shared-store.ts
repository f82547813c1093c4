import type {
  EngineBuilder,
  KeyedStore,
  ListOptions,
  PutOptions,
  StoreChangeListener,
  StorePosture,
} from '@corekit/abstractions';
import { resolveStoreSchema, storePostureOf, versionedStore } from '@corekit/abstractions';
import { LocalFileStore } from './local-file-store';

/** The posture a store with a file of its own reports: durable, this node only. */
export const localFilePosture: StorePosture = storePostureOf({
  kind: 'local-file',
  durable: true,
  shared: false,
});

/**
 * A delivery store that may have a local file of its own (`...FilePath`). The file is used only while the
 * engine's store provider is not shared: with PostgreSQL or Redis the records go to the provider, because a
 * per-replica file would split them between replicas (each replica retrying its own queue, reading its own
 * observations). The choice is made at first use (after `build()`, when the provider is final) and kept.
 * Records in the file carry their schema version as the engine's stores do (`versionedStore`).
 */
export class FileOrSharedStore<T> implements KeyedStore<T> {
  private chosen: KeyedStore<T> | undefined;
  private readonly engineStore: KeyedStore<T>;

  constructor(
    private readonly builder: EngineBuilder,
    readonly name: string,
    /** The local file path, when configured. */
    readonly file: string | undefined,
    private readonly maxEntries: number,
    private readonly now: () => Date,
  ) {
    this.engineStore = builder.openStore<T>(name, { maxEntries });
  }

  /** True when a file path is configured but the shared provider holds the records instead. */
  get fileIgnored(): boolean {
    return this.file !== undefined && this.builder.storeTraits().shared;
  }

  /** Where the records are, as the surfaces report it (read when a surface is read). */
  posture(): StorePosture {
    const engine = storePostureOf(this.builder.storeTraits());
    return this.file !== undefined && !engine.shared ? localFilePosture : engine;
  }

  private target(): KeyedStore<T> {
    this.chosen ??=
      this.file !== undefined && !this.builder.storeTraits().shared
        ? versionedStore<T>(
            new LocalFileStore<unknown>(this.name, this.file, this.maxEntries, this.now),
            resolveStoreSchema(this.name),
          )
        : this.engineStore;
    return this.chosen;
  }

  get(key: string) {
    return this.target().get(key);
  }

  list(options?: ListOptions) {
    return this.target().list(options);
  }

  put(key: string, value: T, options?: PutOptions) {
    return this.target().put(key, value, options);
  }

  delete(key: string, options?: { readonly expectedVersion?: number }) {
    return this.target().delete(key, options);
  }

  count() {
    return this.target().count();
  }

  /** The engine provider's change feed; a local file has none (one process writes it). */
  watch(listener: StoreChangeListener) {
    return this.target().watch?.(listener);
  }
}
