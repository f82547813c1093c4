import { requireService } from '@corekit/testing/require-service';
import pg from 'pg';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addRetrieval } from '@corekit/retrieval';
import { knowledgeRoutesScenario } from '../../retrieval/src/test-support/knowledge-routes-scenario';
import { addPostgresKnowledgeIndex } from './add-postgres-knowledge-index';
import { createPostgresIndexProvider } from './postgres-index-provider';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const table = `knowledge_test_${process.pid}`;
let available = false;
let pool: pg.Pool;

beforeAll(async () => {
  available = await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
  if (!available) return;
  pool = new pg.Pool({ connectionString: postgresUrl });
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
});

afterAll(async () => {
  if (!available) return;
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
});

describe('PostgreSQL knowledge index', () => {
  it('answers every 4.4 knowledge route over HTTP on PostgreSQL full text', async () => {
    if (!available) return;
    const provider = createPostgresIndexProvider({ connectionString: postgresUrl, table });
    await knowledgeRoutesScenario(provider, 'handbook-pg');
    const index = await pool.query(`SELECT indexdef FROM pg_indexes WHERE tablename = $1`, [table]);
    expect(index.rows.map((row) => row.indexdef).join('\n')).toMatch(/USING gin \(search\)/);
  });

  it('keeps the index across a restart, so the next run is incremental', async () => {
    if (!available) return;
    const collection = {
      id: 'restart-pg',
      fields: ['title'],
      source: () => [{ id: 'a', text: { title: 'durable tsvector rows' }, updatedAt: 1 }],
    };
    const once = async () => {
      const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
      builder.addModule({ id: 'docs', version: '1.0.0', capabilities: [] });
      const retrieval = addRetrieval(builder, { Provider: 'postgresql' });
      addPostgresKnowledgeIndex(builder, {
        ConnectionString: postgresUrl,
        Table: table,
        TextSearchConfig: 'simple',
      });
      retrieval.addCollection('docs', collection);
      const engine = builder.build();
      await engine.start();
      const result = await retrieval.reindex('restart-pg');
      const answer = await retrieval.query('restart-pg', { queryText: 'durable rows' });
      await engine.stop();
      return { result, answer };
    };
    const first = await once();
    expect(first.result).toMatchObject({ mode: 'full', documentsIndexed: 1 });
    expect(first.answer.matches[0]?.highlights[0]?.snippet).toBe(
      '<mark>durable</mark> tsvector <mark>rows</mark>',
    );
    const second = await once();
    expect(second.result).toMatchObject({
      mode: 'incremental',
      documentsIndexed: 0,
      documentsUnchanged: 1,
      documentCount: 1,
    });
  });

  it('reports an unreachable server as a failed run without the password', async () => {
    const provider = createPostgresIndexProvider({
      connectionString: 'postgres://app:s3cret@127.0.0.1:1/none',
    });
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    builder.addModule({ id: 'docs', version: '1.0.0', capabilities: [] });
    const retrieval = addRetrieval(builder, { Provider: 'postgresql', providers: [provider] });
    retrieval.addCollection('docs', { id: 'down', fields: ['title'], source: () => [] });
    const engine = builder.build();
    await engine.start();
    const result = await retrieval.reindex('down');
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'ECONNREFUSED' } });
    expect(JSON.stringify(result)).not.toContain('s3cret');
    await expect(retrieval.query('down', { queryText: 'x' })).rejects.toMatchObject({ kind: 'unavailable' });
    await engine.stop();
  });
});
