import { knowledgeRoutesScenario, startRoutesHost } from './test-support/knowledge-routes-scenario';

describe('knowledge-index routes over HTTP (in-process provider)', () => {
  it('answers every 4.4 knowledge route', async () => {
    await knowledgeRoutesScenario(undefined);
  });

  it('answers 404 for reindex and queries when ingestion and querying are not active', async () => {
    const routes = await startRoutesHost(undefined, { EnableIngestion: false, EnableQuerying: false });
    try {
      expect(await routes.call('/engine/knowledge-indexes/handbook/reindex', 'POST')).toMatchObject({
        status: 404,
        body: { code: 'RETRIEVAL_INDEXING_NOT_ACTIVE' },
      });
      expect(
        await routes.call('/engine/knowledge-indexes/handbook/queries', 'POST', { queryText: 'x' }),
      ).toMatchObject({
        status: 404,
        body: { code: 'RETRIEVAL_QUERYING_NOT_ACTIVE' },
      });
    } finally {
      await routes.close();
    }
  });
});
