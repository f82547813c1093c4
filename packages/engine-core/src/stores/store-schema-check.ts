import {
  CoreError,
  errorCode,
  scanStoreSchema,
  storeSchemaErrorCodes,
  type KeyedStore,
  type LifecycleHooks,
  type Logger,
  type StoreProviderTraits,
  type StoreSchema,
} from '@corekit/abstractions';
import { engineRecordEventIds } from '../engine-record-event-ids';

interface OpenedStore {
  /** The store as the provider holds it: envelopes, not values. */
  readonly stored: KeyedStore<unknown>;
  readonly schema: StoreSchema;
}

/**
 * The schema version of every store opened on the engine, checked when the engine starts: a durable store
 * holding a record newer than what its package reads fails the start (STORE_SCHEMA_TOO_NEW) before any pack
 * reads it, instead of in the middle of a request. Stores opened twice must agree on their schema.
 */
export class StoreSchemaCheck {
  private readonly opened = new Map<string, OpenedStore>();

  /** Records a store opened by `openStore`; a second open with another schema version is refused. */
  add(stored: KeyedStore<unknown>, schema: StoreSchema): void {
    const known = this.opened.get(stored.name);
    if (known && known.schema.version !== schema.version) {
      throw new CoreError(
        storeSchemaErrorCodes.conflict,
        `Store "${stored.name}" is opened with schema version ${schema.version} and with ${known.schema.version}: every openStore of one store must name the same schemaVersion.`,
        { store: stored.name, versions: [known.schema.version, schema.version] },
      );
    }
    if (!known) this.opened.set(stored.name, { stored, schema });
  }

  /**
   * Reads every store of a durable provider. A record too new fails (and so does the start); a store that
   * cannot be read now (server down, corrupt file) is logged and left to its own reads, which fail as before.
   */
  async check(traits: StoreProviderTraits, logger: Logger): Promise<void> {
    if (!traits.durable) return;
    for (const { stored, schema } of this.opened.values()) {
      try {
        const scan = await scanStoreSchema(stored, schema);
        if (scan.behind > 0) {
          logger.log({
            level: 'info',
            eventId: engineRecordEventIds.storeSchema,
            category: 'engine.stores',
            message: `Store "${scan.store}": ${scan.behind} of ${scan.records} records are older than schema version ${schema.version} and are migrated when read, until they are written again.`,
            store: scan.store,
            behind: scan.behind,
            schemaVersion: schema.version,
          });
        }
      } catch (error) {
        if (errorCode(error) === storeSchemaErrorCodes.tooNew) throw error;
        logger.log({
          level: 'warn',
          eventId: engineRecordEventIds.storeSchema,
          category: 'engine.stores',
          message: `The schema versions of store "${stored.name}" could not be checked at start (${errorCode(error)}); its reads still refuse a record newer than schema version ${schema.version}.`,
          store: stored.name,
          code: errorCode(error),
        });
      }
    }
  }

  /** The `starting` hook the engine runs before every pack's. */
  hooks(traits: () => StoreProviderTraits, logger: Logger): LifecycleHooks {
    return { id: 'engine-store-schemas', starting: () => this.check(traits(), logger) };
  }
}
