/**
 * The few search-cluster calls the Elasticsearch and OpenSearch providers need, as plain data: each provider
 * package adapts its official client to this shape (the clients differ in request and response wrapping), and
 * `createSearchClusterIndexProvider` holds every line of logic they share.
 */

export interface SearchClusterHit {
  readonly _id: string;
  readonly _score: number | null;
  readonly _source?: Record<string, unknown>;
  readonly highlight?: Record<string, string[]>;
  readonly sort?: unknown[];
}

export interface SearchClusterSearchAnswer {
  readonly hits: {
    readonly total?: { readonly value: number; readonly relation: string } | number;
    readonly hits: readonly SearchClusterHit[];
  };
}

export interface SearchClusterBulkAnswer {
  readonly errors: boolean;
  readonly items: ReadonlyArray<
    Record<string, { status: number; error?: { type?: string; reason?: string } }>
  >;
}

/** The calls, with request bodies as the REST APIs of both products define them. */
export interface SearchClusterCalls {
  indexExists(index: string): Promise<boolean>;
  createIndex(
    index: string,
    body: { settings: Record<string, unknown>; mappings: Record<string, unknown> },
  ): Promise<void>;
  /** NDJSON-style operations: action lines followed by their document lines. */
  bulk(operations: readonly Record<string, unknown>[]): Promise<SearchClusterBulkAnswer>;
  search(index: string, body: Record<string, unknown>): Promise<SearchClusterSearchAnswer>;
  count(index: string): Promise<number>;
  refresh(index: string): Promise<void>;
  close(): Promise<void>;
}

/** True for an "index already exists" refusal (a concurrent creator won). */
export function isAlreadyExists(error: unknown): boolean {
  const text =
    JSON.stringify((error as { meta?: { body?: unknown } })?.meta?.body ?? '') +
    String((error as Error)?.message ?? '');
  return text.includes('resource_already_exists_exception');
}
