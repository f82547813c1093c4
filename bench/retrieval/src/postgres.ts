import pg from 'pg';
import {
  analyzeSql,
  createPostgresIndexProvider,
  createTableSql,
  querySql,
  upsertSql,
} from '@corekit/retrieval-postgres';
import { benchCollection, measured } from './libraries';
import { packRun } from './pack';
import type { BenchDocument } from './workload';

const batchSize = 500;

/** The provider's own statements run bare on one pool: create, batched upserts, then each query. */
export async function postgresBare(
  url: string,
  table: string,
  docs: readonly BenchDocument[],
  queries: readonly string[],
  maxResults: number,
) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    const started = performance.now();
    for (const statement of createTableSql(table)) await pool.query(statement);
    const upsert = upsertSql(table, benchCollection.fields);
    for (let start = 0; start < docs.length; start += batchSize) {
      const batch = docs.slice(start, start + batchSize);
      await pool.query(upsert, [
        'english',
        'bench',
        batch.map((doc) => doc.id),
        batch.map((doc) => JSON.stringify({ title: doc.title, body: doc.body })),
        batch.map(() => '{}'),
        batch.map((doc) => doc.updatedAt),
      ]);
    }
    await pool.query(analyzeSql(table));
    const indexMs = performance.now() - started;
    const select = querySql(table, benchCollection.fields);
    const latencies: number[] = [];
    for (const query of queries) {
      const at = performance.now();
      await pool.query(select, ['english', 'bench', query, maxResults]);
      latencies.push(performance.now() - at);
    }
    return measured('PostgreSQL SQL (bare)', indexMs, latencies);
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await pool.end();
  }
}

/** The pack on the PostgreSQL provider, same table shape, fresh table. */
export async function postgresPack(
  url: string,
  table: string,
  docs: readonly BenchDocument[],
  queries: readonly string[],
  maxResults: number,
) {
  const cleanup = new pg.Pool({ connectionString: url, max: 1 });
  await cleanup.query(`DROP TABLE IF EXISTS ${table}`);
  try {
    return await packRun(
      'pack on PostgreSQL',
      docs,
      queries,
      maxResults,
      createPostgresIndexProvider({ connectionString: url, table }),
    );
  } finally {
    await cleanup.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await cleanup.end();
  }
}
