import type { IndexedCollection, KnowledgeHighlight, KnowledgeIndexProvider } from '@corekit/retrieval';
import pg from 'pg';
import {
  analyzeSql,
  countSql,
  createTableSql,
  querySql,
  removeSql,
  upsertSql,
  versionsSql,
} from './postgres-sql';

/** Options of the PostgreSQL provider. */
export interface PostgresIndexProviderOptions {
  /** `postgres://user:password@host:5432/db`; never logged. */
  readonly connectionString: string;
  /** Table holding every collection's documents, `[a-z_][a-z0-9_]{0,40}`. Default `knowledge_documents`. */
  readonly table?: string;
  /** Text-search configuration (`english`, `simple`, `german`…). Default `english`. */
  readonly textSearchConfig?: string;
  /** Pool size, 1 to 50. Default 4. */
  readonly maxConnections?: number;
}

const tablePattern = /^[a-z_][a-z0-9_]{0,40}$/;
const configPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A knowledge-index provider on PostgreSQL full text: one table (created on first use under an advisory lock)
 * with a weighted `tsvector` per document and a GIN index; queries rank with `ts_rank` and highlight with
 * `ts_headline`. Durable: the index and its versions survive restarts, so the first run after a restart is
 * incremental. Field boosts are not used: fields are weighted by position (A, B, C, then D).
 */
export function createPostgresIndexProvider(options: PostgresIndexProviderOptions): KnowledgeIndexProvider {
  const table = options.table ?? 'knowledge_documents';
  const config = options.textSearchConfig ?? 'english';
  if (!tablePattern.test(table)) throw new TypeError(`table "${table}" must match ${tablePattern}`);
  if (!configPattern.test(config))
    throw new TypeError(`textSearchConfig "${config}" must match ${configPattern}`);
  const maxConnections = options.maxConnections ?? 4;
  if (!(maxConnections >= 1 && maxConnections <= 50)) throw new TypeError('maxConnections must lie in 1..50');
  let pool: pg.Pool | null = null;
  let created: Promise<void> | null = null;
  const fieldsOf = new Map<string, readonly string[]>();
  const connection = () => {
    if (!pool) {
      pool = new pg.Pool({ connectionString: options.connectionString, max: maxConnections });
      // An idle client's error (server restart) must not crash the process; the next query reports it.
      pool.on('error', () => undefined);
    }
    return pool;
  };
  const ensureTable = () => {
    created ??= (async () => {
      const client = await connection().connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
        for (const statement of createTableSql(table)) await client.query(statement);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        created = null;
        throw error;
      } finally {
        client.release();
      }
    })();
    return created;
  };
  const fields = (collectionId: string) => {
    const known = fieldsOf.get(collectionId);
    if (!known) throw new Error(`the PostgreSQL index of "${collectionId}" is not open`);
    return known;
  };
  return {
    id: 'postgresql',
    displayName: 'PostgreSQL full text (tsvector, GIN, ts_rank)',
    durable: true,
    async open(collection: IndexedCollection) {
      await ensureTable();
      fieldsOf.set(collection.id, collection.fields);
    },
    async versions(collectionId) {
      const result = await connection().query(versionsSql(table), [collectionId]);
      return new Map(
        result.rows.map((row: { doc_id: string; updated_at: string }) => [
          row.doc_id,
          Number(row.updated_at),
        ]),
      );
    },
    async upsert(collectionId, documents) {
      if (documents.length === 0) return;
      await connection().query(upsertSql(table, fields(collectionId)), [
        config,
        collectionId,
        documents.map((document) => document.id),
        documents.map((document) => JSON.stringify(document.fields)),
        documents.map((document) => JSON.stringify(document.metadata)),
        documents.map((document) => document.updatedAt),
      ]);
    },
    async remove(collectionId, ids) {
      if (ids.length > 0) await connection().query(removeSql(table), [collectionId, [...ids]]);
    },
    async commit() {
      // Fresh planner statistics after a run, so the GIN index is chosen for the new row count.
      await connection().query(analyzeSql(table));
    },
    async count(collectionId) {
      const result = await connection().query(countSql(table), [collectionId]);
      return result.rows[0].count as number;
    },
    async query(collection, query) {
      const result = await connection().query(querySql(table, collection.fields), [
        config,
        collection.id,
        query.text,
        query.maxResults,
      ]);
      const matches = result.rows.map((row: Record<string, unknown>) => {
        const highlights: KnowledgeHighlight[] = [];
        for (const field of collection.fields) {
          const snippet = row[`h_${field}`];
          if (
            highlights.length < query.maxHighlights &&
            typeof snippet === 'string' &&
            snippet.includes('<mark>')
          ) {
            highlights.push({ field, snippet });
          }
        }
        return {
          id: row.doc_id as string,
          score: Number(row.score),
          highlights,
          metadata: row.metadata as Record<string, string | number | boolean | null>,
          updatedAt: Number(row.updated_at),
        };
      });
      return { matches, total: result.rows.length > 0 ? Number(result.rows[0].total) : 0 };
    },
    async close() {
      const closing = pool;
      pool = null;
      created = null;
      await closing?.end();
    },
  };
}
