import {
  admitJsonText,
  CoreError,
  layoutTooNewError,
  maxStoreKeyLength,
  storeErrorCodes,
} from '@corekit/abstractions';
import { isoAt } from '../clock';
import type { CoreEntry } from './keyed-core';

/** The layout of a store file this package writes and reads; a later release that changes it raises it. */
export const storeFileLayout = 1;

/**
 * The `format` marker of a store file (`corekit-keyed-store/<layout>`); a file without it is not read as a
 * store, and one of a later layout is refused with STORE_LAYOUT_TOO_NEW.
 */
export const storeFileFormat = `corekit-keyed-store/${storeFileLayout}`;

const formatPattern = /^corekit-keyed-store\/([1-9][0-9]*)$/;

interface FileRecord {
  key: string;
  value: unknown;
  version: number;
  updatedAtUtc: string;
  expiresAtUtc?: string;
}

/**
 * Admission of the file provider: JSON values only (`admitJsonText` of the contract says which), kept as the
 * value JSON gives back, so what a reader gets after a restart equals what it got before.
 */
export function admitJson(storeName: string, value: unknown): unknown {
  return JSON.parse(admitJsonText(storeName, value)) as unknown;
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
  const layout = Number(formatPattern.exec(String(body?.format))?.[1]);
  if (layout > storeFileLayout) {
    throw layoutTooNewError(
      `Store file ${file}`,
      '@corekit/engine-core file provider',
      layout,
      storeFileLayout,
    );
  }
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
