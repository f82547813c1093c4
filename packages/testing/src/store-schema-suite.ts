import type { KeyedStore, StoreOptions, StoreProvider } from '@corekit/abstractions';
import { createTestEngineBuilder } from './test-engine-builder';

/** What `describeStoreSchemaConformance` needs of a durable provider. */
export interface StoreSchemaConformance<P extends StoreProvider> {
  /** A provider on a namespace (folder, table, key prefix) of its own, empty; a new one per call. */
  readonly provider: () => P | Promise<P>;
  /** Releases what `provider` made (connections; the namespace when the package cleans up per test). */
  readonly release?: (provider: P) => Promise<void>;
  /**
   * Marks the provider's namespace as written by a later release of the provider (a file format, a table
   * comment or a key of a later layout), after a first use created it, and answers a new provider on the same
   * namespace (a process started afterwards).
   */
  readonly markLaterLayout: (provider: P) => Promise<P>;
}

/** Version 1 of the suite's record: a name. Version 2: first and last names. */
interface Person {
  readonly first: string;
  readonly last: string;
}

const personV2: StoreOptions = {
  schemaVersion: 2,
  migrations: {
    1: (value) => {
      const [first = '', ...rest] = String((value as { name?: unknown }).name).split(' ');
      return { first, last: rest.join(' ') };
    },
  },
};

/**
 * Stored state across releases on one durable provider: the provider keeps the schema envelope of a record
 * exactly (a value written as an earlier release did, bare, reads as version 1 and is migrated; a write stores
 * the current version's envelope), the engine refuses to start on a record of a later schema version, and the
 * provider refuses a namespace of a later physical layout (STORE_LAYOUT_TOO_NEW). Every durable provider (file,
 * PostgreSQL, Redis) runs it from a test file of its own.
 */
export function describeStoreSchemaConformance<P extends StoreProvider>(
  name: string,
  suite: StoreSchemaConformance<P>,
): void {
  describe(`${name}: stored state across releases`, () => {
    const opened: P[] = [];
    afterEach(async () => {
      for (const provider of opened.splice(0)) await suite.release?.(provider);
    });
    async function engineOn(): Promise<{
      provider: P;
      raw: KeyedStore<unknown>;
      builder: ReturnType<typeof createTestEngineBuilder>['builder'];
    }> {
      const provider = await suite.provider();
      opened.push(provider);
      const { builder } = createTestEngineBuilder();
      builder.useStoreProvider(provider);
      return { provider, raw: provider.open<unknown>('people'), builder };
    }

    it('reads a bare record of an earlier release as version 1, migrated, and writes the current envelope', async () => {
      const { raw, builder } = await engineOn();
      await raw.put('ada', { name: 'Ada King Lovelace' });
      const people = builder.openStore<Person>('people', personV2);
      const read = await people.get('ada');
      expect(read).toMatchObject({ value: { first: 'Ada', last: 'King Lovelace' }, version: 1 });
      expect(await raw.get('ada')).toMatchObject({ value: { name: 'Ada King Lovelace' }, version: 1 });
      await people.put('ada', { first: 'Augusta', last: 'King' }, { expectedVersion: read!.version });
      expect(await raw.get('ada')).toMatchObject({
        value: { $schemaVersion: 2, value: { first: 'Augusta', last: 'King' } },
        version: 2,
      });
      expect((await people.list()).map((record) => record.value)).toEqual([
        { first: 'Augusta', last: 'King' },
      ]);
    });

    it('fails the engine start on a record of a later schema version, naming store, key and both versions', async () => {
      const { raw, builder } = await engineOn();
      await raw.put('ada', { $schemaVersion: 3, value: { given: ['Ada'] } });
      builder.openStore<Person>('people', personV2);
      const engine = builder.build();
      await expect(engine.start()).rejects.toMatchObject({
        code: 'ENGINE_START_FAILED',
        cause: {
          code: 'STORE_SCHEMA_TOO_NEW',
          details: { store: 'people', key: 'ada', foundVersion: 3, supportedVersion: 2 },
        },
      });
    });

    it('refuses a namespace of a later physical layout with STORE_LAYOUT_TOO_NEW', async () => {
      const { provider, raw } = await engineOn();
      await raw.put('ada', { name: 'Ada' });
      const again = await suite.markLaterLayout(provider);
      opened.push(again);
      await expect(again.open('people').list()).rejects.toMatchObject({
        code: 'STORE_LAYOUT_TOO_NEW',
        details: { supportedLayout: 1 },
      });
    });
  });
}
