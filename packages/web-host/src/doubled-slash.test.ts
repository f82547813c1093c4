import { rawHttpRequest } from '@corekit/testing/raw-http-request';
import { z } from 'zod';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

/** One request with the path sent as written (node:http, which never normalises it as fetch's URL parser may). */
async function rawRequest(
  base: string,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; allow: string | undefined; body: { code?: string; detail?: string } }> {
  const answer = await rawHttpRequest(base, {
    method,
    path,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body,
  });
  return {
    status: answer.status,
    allow: answer.headers.allow,
    body: answer.text ? (JSON.parse(answer.text) as { code?: string; detail?: string }) : {},
  };
}

describe('a path with an empty segment (a doubled slash)', () => {
  it('answers 404 ROUTE_NOT_FOUND naming the path as sent, never 405 for the method the route takes', async () => {
    const test = await startTestHost();
    test.host.addRoute({
      method: 'post',
      path: '/engine/widgets/commands',
      summary: 'Run a widget command',
      requestBody: z.object({}),
      responses: { 202: { description: 'Accepted' } },
      handler: (_request, response) => void response.status(202).end(),
    });
    for (const [method, path, body] of [
      ['POST', '//engine/widgets/commands', '{}'],
      ['POST', '/engine//widgets/commands', '{}'],
      ['GET', '//engine/status', undefined],
      ['GET', '/engine//status', undefined],
      ['GET', '//health/ready', undefined],
    ] as const) {
      const answer = await rawRequest(test.base, method, path, body);
      expect([method, path, answer.status, answer.body.code, answer.allow]).toEqual([
        method,
        path,
        404,
        'ROUTE_NOT_FOUND',
        undefined,
      ]);
      expect(answer.body.detail).toContain(`No route ${method} ${path};`);
    }
    // The paths as registered still answer, with a trailing slash too (express's non-strict routing).
    expect((await rawRequest(test.base, 'POST', '/engine/widgets/commands', '{}')).status).toBe(202);
    expect((await rawRequest(test.base, 'GET', '/engine/status/')).status).toBe(200);
    // A wrong method on a real path is still 405 with the methods it takes.
    expect(await rawRequest(test.base, 'DELETE', '/engine/widgets/commands')).toMatchObject({
      status: 405,
      allow: 'POST',
    });
  });
});
