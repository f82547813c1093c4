import type { RegisteredCollection } from './collections';
import { indexedCollection } from './collections';
import type { IndexedDocument, KnowledgeIndexProvider } from './index-provider';

/** What one indexing pass did. */
export interface IndexingCounts {
  readonly mode: 'full' | 'incremental';
  readonly documentsSeen: number;
  readonly documentsIndexed: number;
  readonly documentsUnchanged: number;
  readonly documentsRemoved: number;
  readonly documentsRejected: number;
  readonly documentCount: number;
  readonly sourceFreshness: number | null;
}

const maxIdLength = 512;

/** Epoch ms of a source timestamp, or NaN when it is not one. */
export function timestampOf(value: unknown): number {
  // Not `instanceof Date`: a Date from another realm (a worker, a test sandbox) must count too.
  if (Object.prototype.toString.call(value) === '[object Date]') return (value as Date).getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  if (typeof value === 'string') return Date.parse(value);
  return Number.NaN;
}

function toIndexed(collection: RegisteredCollection, document: unknown): IndexedDocument | null {
  if (document === null || typeof document !== 'object') return null;
  const candidate = document as Record<string, unknown>;
  const { id, text } = candidate;
  if (typeof id !== 'string' || id.length === 0 || id.length > maxIdLength) return null;
  const updatedAt = timestampOf(candidate.updatedAt);
  if (Number.isNaN(updatedAt) || text === null || typeof text !== 'object') return null;
  const fields: Record<string, string> = {};
  for (const field of collection.fields) {
    const value = (text as Record<string, unknown>)[field];
    fields[field] = typeof value === 'string' ? value : '';
  }
  const metadata: Record<string, string | number | boolean | null> = {};
  const given = candidate.metadata;
  if (given !== null && typeof given === 'object') {
    for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
        metadata[key] = value as string | number | boolean | null;
      }
    }
  }
  return { id, fields, metadata, updatedAt };
}

/**
 * One incremental pass over a collection: the source is read to the end once; a document whose id and
 * `updatedAt` equal the indexed version is skipped, a new or changed one is written (in batches), and indexed
 * ids the source no longer yields are removed. A document with no id, an id longer than 512 characters, a bad
 * timestamp or an id already seen in this pass is rejected (counted, never indexed). The signal aborts the
 * pass between documents.
 */
export async function indexCollection(
  collection: RegisteredCollection,
  provider: KnowledgeIndexProvider,
  batchSize: number,
  signal: AbortSignal,
): Promise<IndexingCounts> {
  const target = indexedCollection(collection);
  await provider.open(target);
  const versions = await provider.versions(collection.id);
  const seen = new Set<string>();
  let batch: IndexedDocument[] = [];
  let indexed = 0;
  let unchanged = 0;
  let rejected = 0;
  let freshness: number | null = null;
  const flush = async () => {
    if (batch.length === 0) return;
    const writing = batch;
    batch = [];
    await provider.upsert(collection.id, writing);
    indexed += writing.length;
  };
  for await (const raw of collection.source({ collectionId: collection.id, signal })) {
    signal.throwIfAborted();
    const document = toIndexed(collection, raw);
    if (!document || seen.has(document.id)) {
      rejected += 1;
      continue;
    }
    seen.add(document.id);
    if (freshness === null || document.updatedAt > freshness) freshness = document.updatedAt;
    if (versions.get(document.id) === document.updatedAt) {
      unchanged += 1;
      continue;
    }
    batch.push(document);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  const gone = [...versions.keys()].filter((id) => !seen.has(id));
  for (let start = 0; start < gone.length; start += batchSize) {
    signal.throwIfAborted();
    await provider.remove(collection.id, gone.slice(start, start + batchSize));
  }
  await provider.commit?.(collection.id);
  return {
    mode: versions.size === 0 ? 'full' : 'incremental',
    documentsSeen: seen.size + rejected,
    documentsIndexed: indexed,
    documentsUnchanged: unchanged,
    documentsRemoved: gone.length,
    documentsRejected: rejected,
    documentCount: await provider.count(collection.id),
    sourceFreshness: freshness,
  };
}
