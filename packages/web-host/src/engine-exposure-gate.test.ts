import { defineOperation, operationResponse, type EngineBuilder } from '@corekit/abstractions';
import { webSocketUpgradeAnswer } from '@corekit/testing/websocket-upgrade';
import { z } from 'zod';
import { closeTestHosts, startTestHost, type TestHost } from './test-support/test-host';
import type { AuthorizeRequest } from './web-host-options';

afterEach(closeTestHosts);

const production = { NODE_ENV: 'production' };
/** The event stream over WebSocket too (not served by default). */
const withWebSocket = { Engine: { Transports: ['RestApi', 'ServerSentEvents', 'WebSocket'] } };

/** Operator surfaces of every kind a pack can add: a console-like page and asset, a read, a metrics route. */
function operatorSurfaces(builder: EngineBuilder): void {
  builder.addOperation(
    defineOperation({
      id: 'panel.page',
      method: 'GET',
      path: '/engine/panel',
      summary: 'An operator page (no authorization declared: the /engine rule applies)',
      result: z.string(),
      handler: async () => operationResponse(200, '<p>panel</p>', { contentType: 'text/html' }),
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'panel.asset',
      method: 'GET',
      path: '/engine/panel/assets/:file',
      summary: 'A static asset of the page',
      params: z.object({ file: z.string() }),
      result: z.string(),
      handler: async () => operationResponse(200, 'export {};', { contentType: 'text/javascript' }),
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'panel.info',
      method: 'GET',
      path: '/engine/panel/info',
      summary: 'A read the page makes',
      result: z.object({ ok: z.boolean() }),
      handler: async () => ({ ok: true }),
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'panel.metrics',
      method: 'GET',
      path: '/metrics',
      summary: 'An operator surface outside /engine',
      authorization: { mode: 'operator' },
      result: z.string(),
      handler: async () => operationResponse(200, 'up 1\n', { contentType: 'text/plain' }),
    }),
  );
}

/** Every operator surface, refused (or served) alike: [path, status, code, WWW-Authenticate] per surface. */
async function answers(test: TestHost, headers: Record<string, string> = {}) {
  const rows: Array<[string, number, string | undefined, string | null | undefined]> = [];
  for (const path of [
    '/engine',
    '/engine/dependencies',
    '/engine/panel',
    '/engine/panel/assets/app-1234.js',
    '/engine/panel/info',
    '/metrics',
  ]) {
    const answer = await test.request(path, { headers });
    rows.push([
      path,
      answer.status,
      answer.status >= 400 ? answer.body?.code : undefined,
      answer.headers.get('www-authenticate'),
    ]);
  }
  const upgrade = await webSocketUpgradeAnswer(`${test.base}/engine/events/ws`, headers);
  rows.push([
    '/engine/events/ws (upgrade)',
    upgrade.status,
    upgrade.status >= 400 ? (JSON.parse(upgrade.body) as { code: string }).code : undefined,
    (upgrade.headers['www-authenticate'] as string | undefined) ?? null,
  ]);
  return rows;
}

const surfaces = [
  '/engine',
  '/engine/dependencies',
  '/engine/panel',
  '/engine/panel/assets/app-1234.js',
  '/engine/panel/info',
  '/metrics',
  '/engine/events/ws (upgrade)',
];

/** Admits `Bearer operator`, says unauthenticated without a credential and forbidden for another one. */
const bearerHook: AuthorizeRequest = (request) => {
  const header = request.headers.authorization;
  if (!header) return { outcome: 'unauthenticated', reason: 'pass Authorization: Bearer <token>' };
  return header === 'Bearer operator' ? true : { outcome: 'forbidden' };
};

describe('the /engine exposure gate, one rule for every operator surface (NODE_ENV=production)', () => {
  it.each([
    ['an anonymous request, the hook says unauthenticated', bearerHook, {}, 401, 'UNAUTHENTICATED', 'Bearer'],
    [
      'a credential the hook refuses',
      bearerHook,
      { authorization: 'Bearer someone' },
      403,
      'FORBIDDEN',
      null,
    ],
    ['a hook answering false', () => false, { authorization: 'Bearer x' }, 403, 'FORBIDDEN', null],
    [
      'a hook that throws (logged, denied)',
      () => {
        throw new Error('token service down');
      },
      {},
      403,
      'FORBIDDEN',
      null,
    ],
    ['no authorize hook at all (nobody can be let in)', undefined, {}, 403, 'FORBIDDEN', null],
  ] as const)(
    '%s: every surface answers the same refusal',
    async (_case, hook, headers, status, code, challenge) => {
      const test = await startTestHost({
        configuration: withWebSocket,
        setup: operatorSurfaces,
        host: { environment: production, authorize: hook },
      });
      expect(await answers(test, headers)).toEqual(surfaces.map((path) => [path, status, code, challenge]));
    },
  );

  it('a credential the hook admits reaches every surface', async () => {
    const test = await startTestHost({
      configuration: withWebSocket,
      setup: operatorSurfaces,
      host: { environment: production, authorize: bearerHook },
    });
    const rows = await answers(test, { authorization: 'Bearer operator' });
    expect(rows.map(([path, status]) => [path, status])).toEqual(
      surfaces.map((path) => [path, path.endsWith('(upgrade)') ? 101 : 200]),
    );
  });

  it('outside production the same surfaces are open to an anonymous request', async () => {
    const test = await startTestHost({
      configuration: withWebSocket,
      setup: operatorSurfaces,
      host: { authorize: bearerHook },
    });
    const rows = await answers(test);
    expect(rows.map(([path, status]) => [path, status])).toEqual(
      surfaces.map((path) => [path, path.endsWith('(upgrade)') ? 101 : 200]),
    );
  });

  it('the OpenAPI document lists the /engine routes only to a request the gate admits', async () => {
    const test = await startTestHost({
      configuration: withWebSocket,
      setup: operatorSurfaces,
      host: { environment: production, authorize: bearerHook },
    });
    const paths = async (headers: Record<string, string>) =>
      Object.keys((await test.request('/openapi/v1.json', { headers })).body.paths as object);
    expect((await paths({})).filter((path) => path.startsWith('/engine'))).toEqual([]);
    expect(await paths({ authorization: 'Bearer operator' })).toEqual(
      expect.arrayContaining(['/engine', '/engine/panel', '/engine/panel/info']),
    );
  });

  it('asks the hook about an operation with its id and the resource it declares', async () => {
    const asked: unknown[] = [];
    const test = await startTestHost({
      setup: (builder) =>
        builder.addOperation(
          defineOperation({
            id: 'panel.tenant',
            method: 'GET',
            path: '/engine/panel/tenants/:tenantId',
            summary: 'A read in one tenant',
            params: z.object({ tenantId: z.string() }),
            authorizationResource: ({ params }) => ({
              tenantId: (params as { tenantId: string }).tenantId,
              kind: 'panel',
            }),
            result: z.object({ ok: z.boolean() }),
            handler: async () => ({ ok: true }),
          }),
        ),
      host: {
        environment: production,
        authorize: (request, requirement) => {
          asked.push(requirement);
          return request.headers.authorization === 'Bearer operator';
        },
      },
    });
    const answer = await test.request('/engine/panel/tenants/acme', {
      headers: { authorization: 'Bearer operator' },
    });
    expect(answer.status).toBe(200);
    expect(asked).toEqual([
      { policy: null, operationId: 'panel.tenant', resource: { tenantId: 'acme', kind: 'panel' } },
    ]);
  });
});
