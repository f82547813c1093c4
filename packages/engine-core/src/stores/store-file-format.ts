import { CoreError, storeErrorCodes } from '@corekit/abstractions';
import { isoAt } from '../clock';
import { maxStoreKeyLength, type CoreEntry } from './keyed-core';

/** The `format` marker of a store file; a file without it is not read as a store. */
export const storeFileFormat = 'corekit-keyed-store/1';

interface FileRecord {
  key: string;
  value: unknown;
  version: number;
  updatedAtUtc: string;
  expiresAtUtc?: string;
}

/**
 * Admission of the file provider: the value must survive JSON unchanged (null, booleans, finite numbers,
 * strings, arrays, plain objects; `undefined` object properties are dropped as JSON drops them). Anything
 * else (Date, Map, class instances, bigint, NaN, functions, cycles) is refused with STORE_VALUE_INVALID,
 * so what a reader gets after a restart equals what it got before.
 */
export function admitJson(storeName: string, value: unknown): unknown {
  const problem = jsonProblem(value, '$', new Set());
  if (problem) {
    throw new CoreError(
      storeErrorCodes.notSerializable,
      `A value for store "${storeName}" is not JSON-serialisable: ${problem}.`,
      { store: storeName },
    );
  }
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function jsonProblem(value: unknown, at: string, seen: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at} is ${value}`;
  if (typeof value !== 'object') return `${at} is a ${typeof value}`;
  if (seen.has(value)) return `${at} is a cycle`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const problem = jsonProblem(value[index], `${at}[${index}]`, seen);
        if (problem) return problem;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    // Any realm's Object.prototype (its own prototype is null): values cloned in a test VM are still plain.
    const plain = prototype === null || Object.getPrototypeOf(prototype) === null;
    if (!plain || Object.prototype.toString.call(value) !== '[object Object]')
      return `${at} is not a plain object`;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      const problem = jsonProblem(item, `${at}.${key}`, seen);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}

/** The text of a store file holding `entries` (expired ones already dropped). */
export function encodeStoreFile(name: string, entries: ReadonlyArray<readonly [string, CoreEntry]>): string {
  const records: FileRecord[] = entries.map(([key, entry]) => ({
    key,
    value: entry.value,
    version: entry.version,
    updatedAtUtc: isoAt(entry.updatedAtMs),
    ...(entry.expiresAtMs !== undefined ? { expiresAtUtc: isoAt(entry.expiresAtMs) } : {}),
  }));
  return `${JSON.stringify({ format: storeFileFormat, name, records })}\n`;
}

/** Reads a store file's text; anything unexpected is CoreError STORE_CORRUPT naming the file. */
export function decodeStoreFile(file: string, text: string): Array<[string, CoreEntry]> {
  const corrupt = (problem: string, cause?: unknown): CoreError =>
    new CoreError(
      storeErrorCodes.corrupt,
      `Store file ${file} is corrupt (${problem}); it was left as it is: restore it from a backup or move it away.`,
      { file },
      cause === undefined ? undefined : { cause },
    );
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw corrupt(`not JSON: ${(error as Error).message}`, error);
  }
  const body = document as { format?: unknown; records?: unknown } | null;
  if (!body || typeof body !== 'object' || body.format !== storeFileFormat) {
    throw corrupt(`no "format": "${storeFileFormat}" marker`);
  }
  if (!Array.isArray(body.records)) throw corrupt('"records" is not an array');
  const seen = new Set<string>();
  return body.records.map((raw: unknown, index: number): [string, CoreEntry] => {
    const record = raw as Partial<FileRecord> | null;
    const updatedAtMs = Date.parse(String(record?.updatedAtUtc));
    const expiresAtMs =
      record?.expiresAtUtc === undefined ? undefined : Date.parse(String(record.expiresAtUtc));
    if (
      !record ||
      typeof record.key !== 'string' ||
      record.key.length === 0 ||
      record.key.length > maxStoreKeyLength ||
      seen.has(record.key) ||
      !('value' in record) ||
      !Number.isSafeInteger(record.version) ||
      (record.version as number) < 1 ||
      Number.isNaN(updatedAtMs) ||
      (expiresAtMs !== undefined && Number.isNaN(expiresAtMs))
    ) {
      throw corrupt(`record ${index} is malformed or repeats a key`);
    }
    seen.add(record.key);
    const entry: CoreEntry = {
      value: record.value,
      version: record.version as number,
      updatedAtMs,
      ...(expiresAtMs !== undefined ? { expiresAtMs } : {}),
    };
    return [record.key, entry];
  });
}
