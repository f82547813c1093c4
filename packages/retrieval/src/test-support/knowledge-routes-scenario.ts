import type { KnowledgeIndexProvider } from '../index-provider';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { retrievalFixture, testSource } from './retrieval-fixture';

/** A started web host with the handbook collection on `provider` (every caller is allowed). */
export interface RoutesHost {
  readonly host: WebHost;
  call(path: string, method?: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startRoutesHost(
  provider: KnowledgeIndexProvider | undefined,
  options: Record<string, unknown> = {},
  collectionId = 'handbook',
): Promise<RoutesHost & { source: ReturnType<typeof testSource> }> {
  const source = testSource();
  const fixture = retrievalFixture(
    { ...(provider ? { providers: [provider], Provider: provider.id } : {}), ...options },
    {},
    source,
    collectionId,
  );
  const host = createWebHost(fixture.builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: (() => ({ outcome: 'allowed', principal: { subject: 'tester' } })) as never,
  });
  const base = (await host.listen()).url.replace('localhost', '127.0.0.1');
  return {
    host,
    source,
    async call(path, method = 'GET', body) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () => host.close(),
  };
}

/**
 * Every 4.4 knowledge route over HTTP against one provider: catalog and by-id (404 before activity), reindex
 * (404 unknown, full then incremental), queries (ranked, highlighted, 400 invalid, 404 unknown), snapshot
 * and surface. `expectations` lets a provider state its own ranking facts.
 */
export async function knowledgeRoutesScenario(
  provider: KnowledgeIndexProvider | undefined,
  collectionId = 'handbook',
): Promise<void> {
  const routes = await startRoutesHost(provider, {}, collectionId);
  const base = `/engine/knowledge-indexes`;
  try {
    expect(await routes.call(base)).toMatchObject({ status: 200, body: [] });
    expect((await routes.call(`${base}/${collectionId}`)).status).toBe(404);
    expect(await routes.call(`${base}/nope/reindex`, 'POST')).toMatchObject({
      status: 404,
      body: { code: 'RETRIEVAL_COLLECTION_NOT_FOUND' },
    });
    const first = await routes.call(
      `${base}/${collectionId}/reindex?runId=run-1&actorId=ops&correlationId=c-1`,
      'POST',
    );
    expect(first).toMatchObject({
      status: 200,
      body: {
        runId: 'run-1',
        actorId: 'ops',
        correlationId: 'c-1',
        outcome: 'succeeded',
        documentsIndexed: 3,
        documentCount: 3,
      },
    });
    expect((await routes.call(`${base}/${collectionId}/reindex?runId=bad%20id`, 'POST')).status).toBe(400);
    routes.source.documents = routes.source.documents.slice(0, 2);
    const second = await routes.call(`${base}/${collectionId}/reindex`, 'POST');
    expect(second).toMatchObject({
      status: 200,
      body: {
        outcome: 'succeeded',
        mode: 'incremental',
        documentsUnchanged: 2,
        documentsIndexed: 0,
        documentsRemoved: 1,
        documentCount: 2,
      },
    });
    const answer = await routes.call(`${base}/${collectionId}/queries`, 'POST', {
      queryText: 'background reindexing',
      maxResults: 5,
      correlationId: 'q-1',
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { collectionId, matchedCount: 1, correlationId: 'q-1' },
    });
    expect(answer.body.matches[0]).toMatchObject({
      rank: 1,
      documentId: 'reindexing',
      metadata: { section: 'operations' },
    });
    expect(answer.body.matches[0].score).toBeGreaterThan(0);
    expect(answer.body.matches[0].highlights[0].snippet).toMatch(/<mark>[Rr]eindexing<\/mark>/);
    const both = await routes.call(`${base}/${collectionId}/queries`, 'POST', {
      queryText: 'ranked matches scores',
    });
    expect(both.body.matches.map((match: any) => match.documentId)).toEqual(['queries']);
    expect(await routes.call(`${base}/${collectionId}/queries`, 'POST', { queryText: '' })).toMatchObject({
      status: 400,
      body: { code: 'RETRIEVAL_QUERY_TEXT_EMPTY' },
    });
    expect(
      (await routes.call(`${base}/${collectionId}/queries`, 'POST', { queryText: 'x', maxResults: 101 }))
        .status,
    ).toBe(400);
    expect((await routes.call(`${base}/nope/queries`, 'POST', { queryText: 'x' })).status).toBe(404);
    const state = await routes.call(`${base}/${collectionId}`);
    expect(state).toMatchObject({
      status: 200,
      body: {
        collectionId,
        latestOutcome: 'succeeded',
        documentCount: 2,
        queryCount: 2,
        queryLength: 'ranked matches scores'.length,
      },
    });
    expect(JSON.stringify(state.body)).not.toContain('ranked matches');
    expect((await routes.call(base)).body).toHaveLength(1);
    expect((await routes.call('/engine/snapshot')).body.knowledgeIndexes).toHaveLength(1);
    const surfaces = (await routes.call('/engine/technology-surfaces')).body as any[];
    expect(
      surfaces.find((item) => item.id === `knowledge-collection:${collectionId}`)?.metadata,
    ).toMatchObject({
      indexingOwnership: 'core-managed',
      queryOwnership: 'core-managed',
      documentCount: 2,
    });
  } finally {
    await routes.close();
  }
}
