import {
  browserSessionsKey,
  defineOperation,
  operatorAuditKey,
  type BrowserSessionAuthority,
  type EngineBuilder,
  type OperatorAuditEntry,
} from '@corekit/abstractions';
import { z } from 'zod';
import { relativeLocation } from './browser-session-gate';
import type { AuthorizationRequirement } from './web-host-options';
import { closeTestHosts, startTestHost } from './test-support/test-host';

// The host's side of browser sessions, with an authority of the test's own (no console): the hook is asked with
// the session's principal, a change made with the session needs its CSRF token and this origin, a browser is sent
// to the sign-in page, and every guarded change is recorded in the operator audit.

afterEach(closeTestHosts);

const sessionId = 's'.repeat(43);
const csrfToken = 'csrf-token-of-the-session';
const cookie = `test-session=${sessionId}`;

const authority: BrowserSessionAuthority = {
  cookieName: 'test-session',
  csrfHeaderName: 'x-csrf-token',
  loginPath: '/engine/console/login',
  resolve: async (id) =>
    id === sessionId
      ? {
          principal: { subject: 'ada', claims: {}, signedInAtUtc: '2026-01-01T00:00:00.000Z' },
          csrfToken,
        }
      : null,
};

async function start() {
  const asked: Array<{ authorization?: string; requirement?: AuthorizationRequirement }> = [];
  const audit: Array<Omit<OperatorAuditEntry, 'id'>> = [];
  const touched: string[] = [];
  const setup = (builder: EngineBuilder) => {
    builder.provide(browserSessionsKey, authority);
    builder.provide(operatorAuditKey, { record: (entry) => audit.push(entry) });
    builder.addOperation(
      defineOperation({
        id: 'things.touch',
        method: 'POST',
        path: '/engine/things/:thingId/touch',
        summary: 'A guarded change (under /engine, guarded in production)',
        params: z.object({ thingId: z.string() }),
        result: z.object({ by: z.string().nullable() }),
        handler: ({ params }, context) => {
          touched.push(params.thingId);
          return { by: context.principal?.subject ?? null };
        },
      }),
    );
    builder.addOperation(
      defineOperation({
        id: 'things.sign-in',
        method: 'POST',
        path: '/things/sign-in',
        summary: 'An anonymous change that asks the hook about a credential from its body',
        authorization: { mode: 'anonymous' },
        body: z.object({ credential: z.string().optional() }),
        result: z.object({ by: z.string().nullable() }),
        handler: async ({ body }, context) => {
          const principal = await context.authorize({
            policy: 'things.sign-in',
            ...(body.credential ? { credential: body.credential } : {}),
          });
          return { by: principal.subject };
        },
      }),
    );
  };
  const test = await startTestHost({
    setup,
    host: {
      environment: { NODE_ENV: 'production' },
      authorize: (request, requirement) => {
        asked.push({ authorization: request.headers.authorization, requirement });
        if (requirement?.session)
          return { outcome: 'allowed', principal: { subject: requirement.session.subject } };
        if (request.headers.authorization === 'Bearer good')
          return { outcome: 'allowed', principal: { subject: 'api' } };
        return request.headers.authorization ? false : { outcome: 'unauthenticated' };
      },
    },
  });
  return { ...test, asked, audit, touched };
}

describe('browser sessions at the host', () => {
  it("asks the hook with the session's principal on a guarded GET; an Authorization header wins over the cookie", async () => {
    const test = await start();
    expect((await test.request('/engine/status', { headers: { cookie } })).status).toBe(200);
    expect(test.asked.at(-1)?.requirement).toEqual({
      policy: null,
      operationId: null,
      session: { subject: 'ada', claims: {}, signedInAtUtc: '2026-01-01T00:00:00.000Z' },
    });
    expect(
      (await test.request('/engine/status', { headers: { cookie, authorization: 'Bearer bad' } })).status,
    ).toBe(403);
    expect(test.asked.at(-1)?.requirement).toBeUndefined();
    expect(
      (await test.request('/engine/status', { headers: { cookie: 'test-session=unknown' } })).status,
    ).toBe(401);
  });

  it('refuses a change made with the session without its CSRF token or from another origin, before the hook is asked', async () => {
    const test = await start();
    const post = (headers: Record<string, string>, thing = 'a') =>
      test.request(`/engine/things/${thing}/touch`, { method: 'POST', headers });
    const missing = await post({ cookie });
    expect([missing.status, missing.body.code]).toEqual([403, 'CSRF_TOKEN_INVALID']);
    const wrong = await post({ cookie, 'x-csrf-token': 'nope' });
    expect([wrong.status, wrong.body.code]).toEqual([403, 'CSRF_TOKEN_INVALID']);
    const crossSite = await post({ cookie, 'x-csrf-token': csrfToken, 'sec-fetch-site': 'cross-site' });
    expect([crossSite.status, crossSite.body.code]).toEqual([403, 'CSRF_ORIGIN_MISMATCH']);
    const otherOrigin = await post({ cookie, 'x-csrf-token': csrfToken, origin: 'https://evil.example' });
    expect([otherOrigin.status, otherOrigin.body.code]).toEqual([403, 'CSRF_ORIGIN_MISMATCH']);
    expect(test.asked).toEqual([]);
    expect(test.touched).toEqual([]);

    const allowed = await post({ cookie, 'x-csrf-token': csrfToken, origin: test.base }, 'b');
    expect([allowed.status, allowed.body]).toEqual([200, { by: 'ada' }]);
    const bearer = await post({ authorization: 'Bearer good', cookie }, 'c');
    expect([bearer.status, bearer.body]).toEqual([200, { by: 'api' }]);
    expect(test.touched).toEqual(['b', 'c']);
  });

  it('never lets an unchecked change use the session, even one that asks the hook itself; a body credential is presented as a bearer token', async () => {
    const test = await start();
    const signIn = (body: unknown, headers: Record<string, string> = {}) =>
      test.request('/things/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const withCookie = await signIn({}, { cookie });
    expect(withCookie.status).toBe(401);
    expect(test.asked.at(-1)?.requirement?.session).toBeUndefined();
    const withCredential = await signIn({ credential: 'good' }, { cookie });
    expect([withCredential.status, withCredential.body]).toEqual([200, { by: 'api' }]);
    expect(test.asked.at(-1)).toEqual({
      authorization: 'Bearer good',
      requirement: { policy: 'things.sign-in', operationId: 'things.sign-in' },
    });
  });

  it('sends a browser without a session to the sign-in page (303, relative); API clients and refusals keep their problem', async () => {
    const test = await start();
    const browser = (route: string, headers: Record<string, string> = {}) =>
      fetch(`${test.base}${route}`, { redirect: 'manual', headers: { accept: 'text/html', ...headers } });
    const page = await browser('/engine/status');
    expect([page.status, page.headers.get('location')]).toEqual([303, 'console/login']);
    expect((await browser('/engine/things/a/touch')).status).toBe(405); // a GET of a POST route: no redirect
    expect((await browser('/engine/status', { authorization: 'Bearer bad' })).status).toBe(403);
    expect((await test.request('/engine/status', { headers: { accept: 'application/json' } })).status).toBe(
      401,
    );
    expect(relativeLocation('/engine/console', '/engine/console/login')).toBe('console/login');
    expect(relativeLocation('/engine/console/', '/engine/console/login')).toBe('login');
    expect(relativeLocation('/engine/things/a', '/engine/console/login')).toBe('../console/login');
  });

  it('records every guarded change with who, how, what and the outcome; reads and unguarded changes are not actions', async () => {
    const test = await start();
    await test.request('/engine/things/a/touch', { method: 'POST', headers: { cookie } });
    await test.request('/engine/things/b/touch', {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken },
    });
    await test.request('/engine/things/c/touch', {
      method: 'POST',
      headers: { authorization: 'Bearer good' },
    });
    await test.request('/engine/things/d/touch', { method: 'POST' });
    await test.request('/engine/status', { headers: { cookie } });
    await test.request('/things/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(
      test.audit.map(({ actor, via, action, method, path, target, outcome, status, code }) => [
        actor,
        via,
        action,
        method,
        path,
        target,
        outcome,
        status,
        code,
      ]),
    ).toEqual([
      [
        'ada',
        'session',
        'things.touch',
        'POST',
        '/engine/things/a/touch',
        'thingId=a',
        'refused',
        403,
        'CSRF_TOKEN_INVALID',
      ],
      [
        'ada',
        'session',
        'things.touch',
        'POST',
        '/engine/things/b/touch',
        'thingId=b',
        'succeeded',
        200,
        null,
      ],
      [
        'api',
        'credential',
        'things.touch',
        'POST',
        '/engine/things/c/touch',
        'thingId=c',
        'succeeded',
        200,
        null,
      ],
      [
        null,
        'anonymous',
        'things.touch',
        'POST',
        '/engine/things/d/touch',
        'thingId=d',
        'refused',
        401,
        'UNAUTHENTICATED',
      ],
    ]);
    expect(JSON.stringify(test.audit)).not.toContain(sessionId);
    expect(JSON.stringify(test.audit)).not.toContain(csrfToken);
  });
});
