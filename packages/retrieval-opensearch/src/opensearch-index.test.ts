import {
  startOpenSearchFakeServer,
  type OpenSearchFakeServer,
} from '@corekit/testing/fakes/opensearch/opensearch-fake-server';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addRetrieval } from '@corekit/retrieval';
import { knowledgeRoutesScenario } from '../../retrieval/src/test-support/knowledge-routes-scenario';
import { addOpenSearchKnowledgeIndex } from './add-opensearch-knowledge-index';
import { createOpenSearchIndexProvider } from './opensearch-index-provider';

/** OPENSEARCH_URL points the same tests at a real cluster; otherwise they run against the wire fake. */
const realUrl = process.env.OPENSEARCH_URL;
const prefix = `corekit-test-${process.pid}-`;
let fake: OpenSearchFakeServer | undefined;
let node: string;

beforeAll(async () => {
  if (realUrl) node = realUrl;
  else {
    fake = await startOpenSearchFakeServer();
    node = fake.url;
  }
});

afterAll(async () => {
  await fake?.close();
});

describe('OpenSearch knowledge index', () => {
  it('answers every 4.4 knowledge route over HTTP through the official client', async () => {
    await knowledgeRoutesScenario(
      createOpenSearchIndexProvider({ node, indexPrefix: prefix }),
      'handbook-os',
    );
    if (fake) {
      expect(fake.searchIndices.get(`${prefix}handbook-os`)?.documents.size).toBe(2);
      const calls = fake.requests.map((request) => `${request.method} ${request.path.replace(prefix, '')}`);
      expect(calls).toEqual(
        expect.arrayContaining(['PUT /handbook-os', 'POST /_bulk', 'POST /handbook-os/_search']),
      );
    }
  });

  it('binds Engine:Retrieval:OpenSearch and keeps the index across restarts', async () => {
    const once = async () => {
      const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
      builder.addModule({ id: 'docs', version: '1.0.0', capabilities: [] });
      const retrieval = addRetrieval(builder, { Provider: 'opensearch' });
      addOpenSearchKnowledgeIndex(builder, { Node: node, IndexPrefix: prefix });
      retrieval.addCollection('docs', {
        id: 'restart-os',
        fields: ['title'],
        source: () => [{ id: 'a', text: { title: 'durable cluster index' }, updatedAt: 5 }],
      });
      const engine = builder.build();
      await engine.start();
      const result = await retrieval.reindex('restart-os');
      await engine.stop();
      return result;
    };
    expect(await once()).toMatchObject({ mode: 'full', documentsIndexed: 1 });
    expect(await once()).toMatchObject({ mode: 'incremental', documentsUnchanged: 1, documentCount: 1 });
  });

  it('reports a cluster without a cluster manager as a failed run and a failed query as 503', async () => {
    if (!fake) return;
    const broken = await startOpenSearchFakeServer({ clusterManagerMissing: true });
    try {
      const provider = createOpenSearchIndexProvider({
        node: broken.url,
        indexPrefix: prefix,
        requestTimeoutMs: 2000,
      });
      const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
      builder.addModule({ id: 'docs', version: '1.0.0', capabilities: [] });
      const retrieval = addRetrieval(builder, { Provider: 'opensearch', providers: [provider] });
      retrieval.addCollection('docs', { id: 'broken', fields: ['title'], source: () => [] });
      const engine = builder.build();
      await engine.start();
      expect(await retrieval.reindex('broken')).toMatchObject({ outcome: 'failed' });
      await expect(retrieval.query('broken', { queryText: 'x' })).rejects.toMatchObject({
        kind: 'unavailable',
      });
      await engine.stop();
    } finally {
      await broken.close();
    }
  });
});
