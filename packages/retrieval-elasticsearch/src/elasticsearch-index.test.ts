import {
  startElasticsearchFakeServer,
  type ElasticsearchFakeServer,
} from '@corekit/testing/fakes/elasticsearch/elasticsearch-fake-server';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addRetrieval } from '@corekit/retrieval';
import { knowledgeRoutesScenario } from '../../retrieval/src/test-support/knowledge-routes-scenario';
import { addElasticsearchKnowledgeIndex } from './add-elasticsearch-knowledge-index';
import { createElasticsearchIndexProvider } from './elasticsearch-index-provider';

/** ELASTICSEARCH_URL points the same tests at a real cluster; otherwise they run against the wire fake. */
const realUrl = process.env.ELASTICSEARCH_URL;
const prefix = `corekit-test-${process.pid}-`;
let fake: ElasticsearchFakeServer | undefined;
let node: string;

beforeAll(async () => {
  if (realUrl) node = realUrl;
  else {
    fake = await startElasticsearchFakeServer();
    node = fake.url;
  }
});

afterAll(async () => {
  await fake?.close();
});

describe('Elasticsearch knowledge index', () => {
  it('answers every 4.4 knowledge route over HTTP through the official client', async () => {
    await knowledgeRoutesScenario(
      createElasticsearchIndexProvider({ node, indexPrefix: prefix }),
      'handbook-es',
    );
    if (fake) {
      const index = fake.searchIndices.get(`${prefix}handbook-es`);
      expect(index?.documents.size).toBe(2);
      const calls = fake.requests.map((request) => `${request.method} ${request.path.replace(prefix, '')}`);
      expect(calls).toEqual(
        expect.arrayContaining([
          'PUT /handbook-es',
          'POST /_bulk',
          'POST /handbook-es/_search',
          'GET /handbook-es/_refresh',
        ]),
      );
    }
  });

  it('binds Engine:Retrieval:Elasticsearch and keeps the index across restarts', async () => {
    const once = async () => {
      const logger = createMemoryLogger();
      const builder = createEngineBuilder({ environment: {}, logger });
      builder.addModule({ id: 'docs', version: '1.0.0', capabilities: [] });
      const retrieval = addRetrieval(builder, { Provider: 'elasticsearch' });
      addElasticsearchKnowledgeIndex(builder, { Node: node, IndexPrefix: prefix });
      retrieval.addCollection('docs', {
        id: 'restart-es',
        fields: ['title'],
        source: () => [{ id: 'a', text: { title: 'durable cluster index' }, updatedAt: 5 }],
      });
      const engine = builder.build();
      await engine.start();
      const result = await retrieval.reindex('restart-es');
      await engine.stop();
      return result;
    };
    expect(await once()).toMatchObject({ mode: 'full', documentsIndexed: 1 });
    expect(await once()).toMatchObject({ mode: 'incremental', documentsUnchanged: 1, documentCount: 1 });
  });

  it('reports a refused write as a failed run', async () => {
    if (!fake) return;
    const secured = await startElasticsearchFakeServer({ apiKey: 'right-key' });
    try {
      const provider = createElasticsearchIndexProvider({
        node: secured.url,
        apiKey: 'wrong-key',
        indexPrefix: prefix,
      });
      const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
      builder.addModule({ id: 'docs', version: '1.0.0', capabilities: [] });
      const retrieval = addRetrieval(builder, { Provider: 'elasticsearch', providers: [provider] });
      retrieval.addCollection('docs', { id: 'refused', fields: ['title'], source: () => [] });
      const engine = builder.build();
      await engine.start();
      const result = await retrieval.reindex('refused');
      expect(result).toMatchObject({ outcome: 'failed' });
      expect(JSON.stringify(result)).not.toContain('wrong-key');
      await engine.stop();
    } finally {
      await secured.close();
    }
  });
});
