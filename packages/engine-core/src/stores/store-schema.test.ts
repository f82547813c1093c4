import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveStoreSchema, versionedStore, type StoreOptions } from '@corekit/abstractions';
import { testBuilder } from '../testing-support/engine-fixtures';
import { FileStoreProvider } from './file-store';
import { MemoryStoreProvider } from './memory-store';

/** Version 1 of a record: a name. Version 2: a first and last name. */
interface PersonV2 {
  readonly first: string;
  readonly last: string;
}

const personV2: StoreOptions = {
  schemaVersion: 2,
  migrations: {
    1: (value) => {
      const { name } = value as { name: string };
      if (typeof name !== 'string') throw new Error('name is not a string');
      const [first = '', ...rest] = name.split(' ');
      return { first, last: rest.join(' ') };
    },
  },
};

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'corekit-store-schema-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** An engine on a file store in the test's folder; `provider` writes records as an earlier release did. */
function fileEngine() {
  const { builder, logger } = testBuilder();
  const provider = new FileStoreProvider({ directory });
  builder.useStoreProvider(provider);
  return { builder, logger, provider, raw: provider.open<unknown>('people') };
}

async function errorOf(
  action: () => Promise<unknown>,
): Promise<{ code?: string; details?: unknown; message: string }> {
  try {
    await action();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected a failure');
}

describe('store schema versions', () => {
  it('reads a record written before schema versions (a bare value) as version 1 and migrates it', async () => {
    const { builder, raw } = fileEngine();
    await raw.put('ada', { name: 'Ada King Lovelace' });
    const people = builder.openStore<PersonV2>('people', personV2);
    const record = await people.get('ada');
    expect(record).toMatchObject({ key: 'ada', value: { first: 'Ada', last: 'King Lovelace' }, version: 1 });
    expect((await people.list()).map((item) => item.value)).toEqual([
      { first: 'Ada', last: 'King Lovelace' },
    ]);
    // A read rewrites nothing: the stored record keeps its shape and its version.
    expect(await raw.get('ada')).toMatchObject({ value: { name: 'Ada King Lovelace' }, version: 1 });
  });

  it('writes the current version in an envelope; a compare-and-set write at the version read replaces the old shape', async () => {
    const { builder, raw } = fileEngine();
    await raw.put('ada', { name: 'Ada Lovelace' });
    const people = builder.openStore<PersonV2>('people', personV2);
    const read = await people.get('ada');
    const written = await people.put(
      'ada',
      { ...read!.value, first: 'Augusta' },
      { expectedVersion: read!.version },
    );
    expect(written).toMatchObject({
      written: true,
      record: { value: { first: 'Augusta', last: 'Lovelace' }, version: 2 },
    });
    expect((await raw.get('ada'))?.value).toEqual({
      $schemaVersion: 2,
      value: { first: 'Augusta', last: 'Lovelace' },
    });
    const refused = await people.put('ada', { first: 'x', last: 'y' }, { expectedVersion: 1 });
    expect(refused).toEqual({
      written: false,
      current: expect.objectContaining({ value: { first: 'Augusta', last: 'Lovelace' } }),
    });
  });

  it('opens every store at schema version 1 by default: values round-trip, the file holds envelopes', async () => {
    const { builder, raw } = fileEngine();
    const counters = builder.openStore<number>('people');
    await counters.put('n', 41);
    expect((await counters.get('n'))?.value).toBe(41);
    expect((await raw.get('n'))?.value).toEqual({ $schemaVersion: 1, value: 41 });
  });

  it('refuses a record of a newer schema version on read, naming the store, both versions and the key', async () => {
    const { builder, raw } = fileEngine();
    await raw.put('ada', { $schemaVersion: 3, value: { given: ['Ada'] } });
    const people = builder.openStore<PersonV2>('people', personV2);
    const error = await errorOf(() => people.get('ada'));
    expect(error).toMatchObject({
      code: 'STORE_SCHEMA_TOO_NEW',
      details: { store: 'people', foundVersion: 3, supportedVersion: 2, key: 'ada' },
    });
    expect(error.message).toContain(
      'Run that release (or a later one) again, or restore the store from a backup',
    );
    await expect(people.list()).rejects.toMatchObject({ code: 'STORE_SCHEMA_TOO_NEW' });
    await expect(people.put('ada', { first: 'a', last: 'b' }, { expectedVersion: 0 })).rejects.toMatchObject({
      code: 'STORE_SCHEMA_TOO_NEW',
    });
  });

  it('fails the start on a newer record before any pack starts, and starts on older ones', async () => {
    const { builder, raw, logger } = fileEngine();
    await raw.put('grace', { name: 'Grace Hopper' });
    await raw.put('ada', { $schemaVersion: 3, value: {} });
    builder.openStore<PersonV2>('people', personV2);
    let packStarted = false;
    builder.addLifecycleHooks({ id: 'reader', starting: () => void (packStarted = true) });
    const engine = builder.build();
    const error = await errorOf(() => engine.start());
    expect(error).toMatchObject({ code: 'ENGINE_START_FAILED', cause: { code: 'STORE_SCHEMA_TOO_NEW' } });
    expect(error.message).toContain('Store "people" holds a record of schema version 3 (key "ada")');
    expect(packStarted).toBe(false);

    await raw.delete('ada');
    await engine.start();
    expect(packStarted).toBe(true);
    expect(logger.records).toContainEqual(
      expect.objectContaining({ eventId: 2038, store: 'people', behind: 1 }),
    );
    await engine.stop();
  });

  it('refuses a malformed envelope and a record its migration cannot read as STORE_CORRUPT naming the key', async () => {
    const { builder, raw } = fileEngine();
    await raw.put('bad-envelope', { $schemaVersion: 'two', value: {} });
    await raw.put('bad-shape', { name: 42 });
    const people = builder.openStore<PersonV2>('people', personV2);
    await expect(people.get('bad-envelope')).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      details: { store: 'people', key: 'bad-envelope' },
    });
    const error = await errorOf(() => people.get('bad-shape'));
    expect(error).toMatchObject({ code: 'STORE_CORRUPT', details: { key: 'bad-shape' } });
    expect(error.message).toContain('the migration from schema version 1 failed: name is not a string');
  });

  it('refuses a store file of a later layout with STORE_LAYOUT_TOO_NEW, naming the file and both layouts', async () => {
    const { builder, provider } = fileEngine();
    await writeFile(
      provider.fileOf('people'),
      JSON.stringify({ format: 'corekit-keyed-store/2', name: 'people', records: [] }),
    );
    const error = await errorOf(() => builder.openStore('people').list());
    expect(error).toMatchObject({
      code: 'STORE_LAYOUT_TOO_NEW',
      details: { foundLayout: 2, supportedLayout: 1 },
    });
    expect(error.message).toContain(`Store file ${provider.fileOf('people')} has store layout 2`);
  });

  it("passes the inner store's change feed through (keys and versions, never values)", async () => {
    const store = versionedStore<number>(
      new MemoryStoreProvider().open('people'),
      resolveStoreSchema('people'),
    );
    const changes: Array<[string, number | null]> = [];
    const subscription = store.watch?.({ change: (change) => changes.push([change.key, change.version]) });
    await store.put('a', 1);
    await store.put('a', 2);
    subscription?.close();
    expect(changes).toEqual([
      ['a', 1],
      ['a', 2],
    ]);
  });

  it('refuses a schema without every migration, and one store opened at two schema versions', () => {
    expect(() =>
      resolveStoreSchema('people', { schemaVersion: 3, migrations: { 1: (value) => value } }),
    ).toThrow('Store "people" is at schema version 3 but has no migration from version 2 (migrations[2]).');
    const { builder } = testBuilder();
    expect(() => builder.openStore('people', { schemaVersion: 0 })).toThrow(RangeError);
    builder.openStore('people', personV2);
    expect(() => builder.openStore('people')).toThrow(
      expect.objectContaining({ code: 'STORE_SCHEMA_CONFLICT' }) as Error,
    );
  });
});
