import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  CoreError,
  storeErrorCodes,
  type KeyedStore,
  type ListOptions,
  type PutOptions,
  type PutResult,
  type StoredRecord,
} from '@corekit/abstractions';

interface FileShape<T> {
  readonly format: 'corekit-governance-local-store/1';
  readonly records: Array<StoredRecord<T>>;
}

/**
 * A keyed store kept in one local JSON file at a path the host chose (`InvitationDeliveryRetryQueueFilePath`,
 * `InvitationDeliveryObservationStoreFilePath`), for state that must survive restarts when the engine's
 * store provider is memory. Every write rewrites the file by atomic replace (temporary file, fsync, rename,
 * fsync of the directory): a kill at any moment leaves the previous or the new file. One process per file;
 * `ttlMs` is not supported (records are kept until deleted). Values must be JSON.
 */
export class LocalFileStore<T> implements KeyedStore<T> {
  private records: Map<string, StoredRecord<T>> | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly file: string,
    private readonly maxEntries: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async load(): Promise<Map<string, StoredRecord<T>>> {
    if (this.records) return this.records;
    let text: string | undefined;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const map = new Map<string, StoredRecord<T>>();
    if (text !== undefined) {
      let parsed: FileShape<T>;
      try {
        parsed = JSON.parse(text) as FileShape<T>;
      } catch {
        throw new CoreError(storeErrorCodes.corrupt, `The local store file of ${this.name} is not JSON`);
      }
      if (parsed.format !== 'corekit-governance-local-store/1' || !Array.isArray(parsed.records)) {
        throw new CoreError(
          storeErrorCodes.corrupt,
          `The local store file of ${this.name} has another format`,
        );
      }
      for (const record of parsed.records) map.set(record.key, record);
    }
    this.records ??= map;
    return this.records;
  }

  private serialize<R>(work: () => Promise<R>): Promise<R> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async persist(records: Map<string, StoredRecord<T>>): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    const shape: FileShape<T> = {
      format: 'corekit-governance-local-store/1',
      records: [...records.values()],
    };
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(JSON.stringify(shape));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, this.file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    const directory = await open(path.dirname(this.file), 'r').catch(() => undefined);
    if (directory) {
      await directory.sync().catch(() => undefined);
      await directory.close();
    }
  }

  async get(key: string): Promise<StoredRecord<T> | undefined> {
    const record = (await this.load()).get(key);
    return record ? structuredClone(record) : undefined;
  }

  async list(options: ListOptions = {}): Promise<readonly StoredRecord<T>[]> {
    const records = [...(await this.load()).values()]
      .filter((record) => !options.prefix || record.key.startsWith(options.prefix))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return structuredClone(options.limit === undefined ? records : records.slice(0, options.limit));
  }

  put(key: string, value: T, options: PutOptions = {}): Promise<PutResult<T>> {
    return this.serialize(async () => {
      const records = await this.load();
      const current = records.get(key);
      if (options.expectedVersion !== undefined && (current?.version ?? 0) !== options.expectedVersion) {
        return { written: false as const, current: current ? structuredClone(current) : null };
      }
      if (!current && records.size >= this.maxEntries) {
        throw new CoreError(storeErrorCodes.full, `The store ${this.name} holds ${this.maxEntries} records`);
      }
      const record: StoredRecord<T> = {
        key,
        value: JSON.parse(JSON.stringify(value)) as T,
        version: (current?.version ?? 0) + 1,
        updatedAtUtc: this.now().toISOString(),
      };
      const next = new Map(records);
      next.set(key, record);
      await this.persist(next);
      this.records = next;
      return { written: true as const, record: structuredClone(record) };
    });
  }

  delete(key: string, options: { readonly expectedVersion?: number } = {}): Promise<boolean> {
    return this.serialize(async () => {
      const records = await this.load();
      const current = records.get(key);
      if (!current) return false;
      if (options.expectedVersion !== undefined && current.version !== options.expectedVersion) return false;
      const next = new Map(records);
      next.delete(key);
      await this.persist(next);
      this.records = next;
      return true;
    });
  }

  async count(): Promise<number> {
    return (await this.load()).size;
  }
}
