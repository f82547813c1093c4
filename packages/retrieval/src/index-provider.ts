/**
 * The index-provider contract: where the documents of a collection are indexed and searched. The pack owns
 * the sources, the incremental diff, the state and the routes; a provider only stores and ranks. One provider
 * object serves every collection of an engine; `collectionId` names the index inside it.
 */

/** A document as the pack hands it to a provider: flattened text fields plus safe metadata. */
export interface IndexedDocument {
  readonly id: string;
  /** Text per declared field name (missing fields are empty strings). */
  readonly fields: Readonly<Record<string, string>>;
  readonly metadata: Readonly<Record<string, string | number | boolean | null>>;
  /** Epoch milliseconds of the source's updated timestamp. */
  readonly updatedAt: number;
}

/** What a provider knows about a collection when it opens its index. */
export interface IndexedCollection {
  readonly id: string;
  /** Text fields in declaration order. */
  readonly fields: readonly string[];
  /** Score multiplier per field (1 when absent). */
  readonly boosts: Readonly<Record<string, number>>;
}

/** A provider's query input; `text` is already validated (non-empty, bounded). */
export interface ProviderQuery {
  readonly text: string;
  readonly maxResults: number;
  /** Highlights wanted per match (0: none). */
  readonly maxHighlights: number;
}

/** One highlighted excerpt: matched terms wrapped in `<mark>`…`</mark>`. */
export interface KnowledgeHighlight {
  readonly field: string;
  readonly snippet: string;
}

/** One ranked match; scores are provider-specific and only comparable within one answer. */
export interface ProviderMatch {
  readonly id: string;
  readonly score: number;
  readonly highlights: readonly KnowledgeHighlight[];
  readonly metadata: Readonly<Record<string, string | number | boolean | null>>;
  readonly updatedAt: number;
}

/** A provider's answer to a query: the best matches and how many documents matched in total. */
export interface ProviderQueryAnswer {
  readonly matches: readonly ProviderMatch[];
  /** Total matching documents (the provider may cap the count; `totalIsLowerBound` says so). */
  readonly total: number;
  readonly totalIsLowerBound?: boolean;
}

/**
 * A knowledge-index provider. Every method may be called concurrently for different collections; the pack
 * never runs two indexing runs of one collection at once. Errors thrown are reported as the run's or the
 * query's failure (their message is summarised and redacted, never shown raw).
 */
export interface KnowledgeIndexProvider {
  /** `in-process`, `postgresql`, `elasticsearch`, `opensearch`: matched against `Engine:Retrieval:Provider`. */
  readonly id: string;
  readonly displayName: string;
  /** True when the index survives a restart of the process (the in-process index does not). */
  readonly durable: boolean;
  /** Creates the collection's index when absent (idempotent); called before every indexing run and query. */
  open(collection: IndexedCollection): Promise<void>;
  /** The indexed document ids with their updated timestamps (epoch ms): the base of the incremental diff. */
  versions(collectionId: string): Promise<ReadonlyMap<string, number>>;
  /** Inserts or replaces documents (by id). */
  upsert(collectionId: string, documents: readonly IndexedDocument[]): Promise<void>;
  /** Removes documents by id; unknown ids are ignored. */
  remove(collectionId: string, ids: readonly string[]): Promise<void>;
  /** Makes the writes of a run visible to queries (a refresh); optional. */
  commit?(collectionId: string): Promise<void>;
  /** Number of indexed documents. */
  count(collectionId: string): Promise<number>;
  query(collection: IndexedCollection, query: ProviderQuery): Promise<ProviderQueryAnswer>;
  /** Releases connections; called when the engine stops. */
  close?(): Promise<void>;
}
