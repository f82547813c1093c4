import {
  admitPut,
  assertDeleteArguments,
  assertListOptions,
  assertValidKey,
  recordFromJson,
  storeExpiryOf,
  storeFullError,
  storeTimeOf,
  type KeyedStore,
  type ListOptions,
  type PutOptions,
  type PutResult,
  type StoreChangeListener,
  type StoreChangeSubscription,
  type StoredRecord,
} from '@corekit/abstractions';
import type { RedisStoreContext } from './redis-store-provider';
import { countScript, deleteScript, listScript, putScript } from './redis-store-scripts';

/** A key's sorted-set member: its UTF-16 code units in hex, so member byte order is JavaScript string order. */
export function memberOf(key: string): string {
  let member = '';
  for (let index = 0; index < key.length; index++)
    member += key.charCodeAt(index).toString(16).padStart(4, '0');
  return member;
}

interface ParsedRecord {
  readonly key: string;
  readonly version: number;
  readonly updatedAtMs: number;
  readonly expiresAtMs: number | undefined;
  readonly json: string;
}

/** Splits `version \n updatedAtMs \n expiresAtMs \n key \n JSON`. */
function parseRecord(text: string): ParsedRecord {
  const first = text.indexOf('\n');
  const second = text.indexOf('\n', first + 1);
  const third = text.indexOf('\n', second + 1);
  const fourth = text.indexOf('\n', third + 1);
  const expires = text.slice(second + 1, third);
  return {
    version: Number(text.slice(0, first)),
    updatedAtMs: Number(text.slice(first + 1, second)),
    expiresAtMs: expires === '' ? undefined : Number(expires),
    key: text.slice(third + 1, fourth),
    json: text.slice(fourth + 1),
  };
}

function toRecord<T>(record: ParsedRecord): StoredRecord<T> {
  return recordFromJson<T>(record.key, record.json, record.version, record.updatedAtMs);
}

/** One named store on Redis; see `RedisStoreProvider`. */
export class RedisKeyedStore<T> implements KeyedStore<T> {
  private readonly keys: { readonly records: string; readonly order: string; readonly expiry: string };

  constructor(
    readonly name: string,
    private readonly maxEntries: number,
    private readonly context: RedisStoreContext,
  ) {
    const base = `${context.keyPrefix}{${name}}`;
    this.keys = { records: `${base}:r`, order: `${base}:k`, expiry: `${base}:x` };
  }

  async get(key: string): Promise<StoredRecord<T> | undefined> {
    assertValidKey(this.name, key);
    const now = this.now();
    const text = await this.call('HGET', () => this.context.client().hget(this.keys.records, memberOf(key)));
    if (text === null) return undefined;
    const record = parseRecord(text);
    return record.expiresAtMs === undefined || now < record.expiresAtMs ? toRecord<T>(record) : undefined;
  }

  async list(options?: ListOptions): Promise<readonly StoredRecord<T>[]> {
    assertListOptions(options);
    if (options?.limit === 0) return [];
    const prefix = memberOf(options?.prefix ?? '');
    // Every member starting with `prefix` sorts below `prefix` + "g": hex digits are all below "g".
    const [min, max] = prefix === '' ? ['-', '+'] : [`[${prefix}`, `(${prefix}g`];
    const texts = await this.call('EVALSHA', () =>
      this.context.run(
        listScript,
        [this.keys.records, this.keys.order],
        [this.now(), min, max, options?.limit ?? ''],
      ),
    );
    return (texts as string[]).map((text) => toRecord<T>(parseRecord(text)));
  }

  async count(): Promise<number> {
    return Number(
      await this.call('EVALSHA', () =>
        this.context.run(countScript, [this.keys.records, this.keys.expiry], [this.now()]),
      ),
    );
  }

  async put(key: string, value: T, options?: PutOptions): Promise<PutResult<T>> {
    const json = admitPut(this.name, key, value, options);
    const now = this.now();
    const expiresAt = storeExpiryOf(now, options) ?? '';
    const [outcome, text] = (await this.call('EVALSHA', () =>
      this.context.run(
        putScript,
        [this.keys.records, this.keys.order, this.keys.expiry],
        [
          memberOf(key),
          key,
          json,
          now,
          expiresAt,
          options?.expectedVersion ?? '',
          this.maxEntries,
          this.context.channel,
          this.name,
        ],
      ),
    )) as [number, string];
    if (outcome === 1) return { written: true, record: toRecord<T>(parseRecord(text)) };
    if (outcome === 0)
      return { written: false, current: text === '' ? null : toRecord<T>(parseRecord(text)) };
    throw storeFullError(this.name, text, this.maxEntries);
  }

  async delete(key: string, options?: { readonly expectedVersion?: number }): Promise<boolean> {
    assertDeleteArguments(this.name, key, options);
    const deleted = await this.call('EVALSHA', () =>
      this.context.run(
        deleteScript,
        [this.keys.records, this.keys.order, this.keys.expiry],
        [memberOf(key), this.now(), options?.expectedVersion ?? '', this.context.channel, this.name, key],
      ),
    );
    return deleted === 1;
  }

  /** Changes of this store by every process on the prefix (pub/sub); undefined when the feed is off. */
  watch(listener: StoreChangeListener): StoreChangeSubscription | undefined {
    return this.context.feed?.watch(this.name, listener);
  }

  private now(): number {
    return storeTimeOf(this.context.clock);
  }

  /** One command (`HGET`, or `EVALSHA` for a script) as one database operation. */
  private async call<R>(operation: string, command: () => Promise<R>): Promise<R> {
    try {
      return await this.context.telemetry.operation({ name: operation }, command);
    } catch (error) {
      throw this.context.unavailable(this.name, error);
    }
  }
}
