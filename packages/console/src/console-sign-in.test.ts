import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineOperation, type EngineBuilder } from '@corekit/abstractions';
import { pollUntil } from '@corekit/testing/poll-until';
import type { AuthorizeRequest } from '@corekit/web-host';
import { z } from 'zod';
import { closeConsoleHosts, startConsoleHost, type ConsoleTestHost } from './test-support/console-test-host';

// The console's sign-in on a real web host in production (guarded /engine): the host's authorize hook judges the
// credential, the session cookie then stands for it on every guarded GET and (with its CSRF token, from this
// origin) every change; the host records each change in the operator audit.

afterEach(closeConsoleHosts);

const token = 'operator-token-5ign-in';
const allowed = { outcome: 'allowed', principal: { subject: 'operator' } } as const;

/** The sample host's rule: the operator token, or a session the hook granted to `operator`. */
const authorize: AuthorizeRequest = (request, requirement) => {
  if (requirement?.session) return requirement.session.subject === 'operator' ? allowed : false;
  const header = request.headers.authorization;
  if (!header) return { outcome: 'unauthenticated', reason: 'pass Authorization: Bearer <token>' };
  return header === `Bearer ${token}` ? allowed : false;
};

/** A guarded change to act on (under /engine, no declared authorization: guarded in production). */
function withThings(touched: string[]) {
  return (builder: EngineBuilder) =>
    builder.addOperation(
      defineOperation({
        id: 'test.touch-thing',
        method: 'POST',
        path: '/engine/test-things/:thingId/touch',
        summary: 'Touches a thing',
        params: z.object({ thingId: z.string() }),
        result: z.object({ touched: z.string() }),
        handler: ({ params }) => {
          touched.push(params.thingId);
          return { touched: params.thingId };
        },
      }),
    );
}

async function start(touched: string[] = [], configuration: Record<string, unknown> = {}) {
  return startConsoleHost({
    environment: { NODE_ENV: 'production' },
    authorize,
    configuration: {
      Engine: {
        Transports: ['RestApi', 'ServerSentEvents'],
        Console: { Login: { Enabled: true } },
        ...configuration,
      },
    },
    setup: withThings(touched),
  });
}

/** Signs in with a form post; answers the cookie pair (`name=value`) and the raw Set-Cookie header. */
async function signIn(test: ConsoleTestHost, credential = token) {
  const answer = await fetch(`${test.base}/engine/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: test.base, accept: 'text/html' },
    body: new URLSearchParams({ credential }).toString(),
  });
  const setCookie = answer.headers.get('set-cookie') ?? '';
  return { answer, setCookie, cookie: setCookie.split(';')[0]! };
}

async function csrfOf(test: ConsoleTestHost, cookie: string): Promise<string> {
  const page = await (await test.get('/engine/console', { cookie })).text();
  return /<meta name="csrf-token" content="([^"]+)">/.exec(page)![1]!;
}

const touch = (test: ConsoleTestHost, headers: Record<string, string>, thing = 'a') =>
  fetch(`${test.base}/engine/test-things/${thing}/touch`, { method: 'POST', headers });

describe('signing in to the console in a browser', () => {
  it('serves an accessible sign-in page without script, and sends a browser without a session there (API clients keep the JSON 401)', async () => {
    const test = await start();
    const page = await test.get('/engine/console/login');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('script-src');
    const html = await page.text();
    expect(html).toContain('<label for="credential">Operator token</label>');
    expect(html).toContain('<form method="post" action="login">');
    expect(html).not.toContain('<script');
    expect((await test.get('/engine/console/sign-in.css')).status).toBe(200);

    for (const route of ['/engine/console', '/engine/status']) {
      const browser = await fetch(`${test.base}${route}`, {
        redirect: 'manual',
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect([route, browser.status, browser.headers.get('location')]).toEqual([route, 303, 'console/login']);
      const api = await test.get(route, { accept: 'application/json' });
      expect([route, api.status]).toEqual([route, 401]);
      expect(((await api.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    }
  });

  it('announces a refused credential on the page and opens no session', async () => {
    const test = await start();
    const wrong = await signIn(test, 'not-the-token');
    expect(wrong.answer.status).toBe(403);
    expect(wrong.setCookie).toBe('');
    const html = await wrong.answer.text();
    expect(html).toMatch(
      /<p class="error" id="sign-in-error" role="alert">The host refused this sign-in.<\/p>/,
    );
    expect(html).toContain('aria-invalid="true"');
    expect(html).not.toContain('not-the-token');
    const empty = await signIn(test, '');
    expect(empty.answer.status).toBe(401);
    expect(await empty.answer.text()).toContain('did not accept this credential');
  });

  it('issues the session cookie through the hook; it opens the page, every guarded GET and the event stream', async () => {
    const test = await start();
    const { answer, setCookie, cookie } = await signIn(test);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('../console');
    expect(setCookie).toMatch(
      /^__Host-corekit-console=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=28800; HttpOnly; SameSite=Strict; Secure$/,
    );
    const page = await test.get('/engine/console', { cookie, accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    const html = await page.text();
    expect(html).toContain('Signed in as <strong>operator</strong>');
    expect(html).toMatch(/<meta name="csrf-token" content="[A-Za-z0-9_-]{43}">/);
    for (const route of ['/engine/status', '/engine/console/info', '/engine/operator-audit']) {
      expect([route, (await test.get(route, { cookie })).status]).toEqual([route, 200]);
    }
    const events = new AbortController();
    const stream = await fetch(`${test.base}/engine/events`, { headers: { cookie }, signal: events.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    events.abort();
    // A cookie that is not a session (forged, expired) is no credential.
    const forged = await test.get('/engine/status', { cookie: `__Host-corekit-console=${'x'.repeat(43)}` });
    expect(forged.status).toBe(401);
  });

  it('refuses a change made with the session without its CSRF token or from another origin; the token, or a bearer token, lets it through', async () => {
    const touched: string[] = [];
    const test = await start(touched);
    const { cookie } = await signIn(test);
    const csrf = await csrfOf(test, cookie);

    const missing = await touch(test, { cookie, origin: test.base });
    expect(missing.status).toBe(403);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await missing.json()) as { code: string }).code).toBe('CSRF_TOKEN_INVALID');
    const wrongToken = await touch(test, {
      cookie,
      origin: test.base,
      'x-csrf-token': csrf.replace(/^./, '_'),
    });
    expect(((await wrongToken.json()) as { code: string }).code).toBe('CSRF_TOKEN_INVALID');
    const crossSite = await touch(test, { cookie, origin: 'https://evil.example', 'x-csrf-token': csrf });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { code: string }).code).toBe('CSRF_ORIGIN_MISMATCH');
    expect(touched).toEqual([]);

    const withToken = await touch(test, { cookie, origin: test.base, 'x-csrf-token': csrf }, 'b');
    expect(withToken.status).toBe(200);
    // A bearer token is no ambient credential: no CSRF token needed, the cookie is not even read.
    const bearer = await touch(test, { authorization: `Bearer ${token}`, cookie }, 'c');
    expect(bearer.status).toBe(200);
    expect(touched).toEqual(['b', 'c']);
  });

  it('records who did what in the operator audit catalog, through any client, and never a secret', async () => {
    const test = await start();
    await signIn(test, 'not-the-token');
    const { cookie } = await signIn(test);
    const csrf = await csrfOf(test, cookie);
    await touch(test, { cookie, origin: test.base });
    await touch(test, { cookie, origin: test.base, 'x-csrf-token': csrf }, 'b');
    await touch(test, { authorization: `Bearer ${token}` }, 'c');
    await touch(test, {}, 'd');
    interface Entry {
      actor: string | null;
      via: string;
      action: string;
      target: string | null;
      outcome: string;
      status: number;
      code: string | null;
      description: string;
    }
    const entries = await pollUntil(
      async () => (await (await test.get('/engine/operator-audit', { cookie })).json()) as Entry[],
      (list) => list.length >= 6,
      { timeoutMs: 5_000 },
    );
    expect(
      entries.map(({ actor, via, action, target, outcome, status, code }) => [
        actor,
        via,
        action,
        target,
        outcome,
        status,
        code,
      ]),
    ).toEqual([
      [null, 'anonymous', 'test.touch-thing', 'thingId=d', 'refused', 401, 'UNAUTHENTICATED'],
      ['operator', 'credential', 'test.touch-thing', 'thingId=c', 'succeeded', 200, null],
      ['operator', 'session', 'test.touch-thing', 'thingId=b', 'succeeded', 200, null],
      ['operator', 'session', 'test.touch-thing', 'thingId=a', 'refused', 403, 'CSRF_TOKEN_INVALID'],
      ['operator', 'credential', 'console.sign-in', null, 'succeeded', 303, null],
      [null, 'credential', 'console.sign-in', null, 'refused', 403, 'FORBIDDEN'],
    ]);
    expect(entries[2]!.description).toBe(
      'operator via session: test.touch-thing on thingId=b, succeeded (200)',
    );
    const secrets = [token, cookie.split('=')[1]!, csrf, 'not-the-token'];
    const surfaces = [
      JSON.stringify(entries),
      await (await test.get('/engine/snapshot', { cookie })).text(),
      JSON.stringify(test.logger.records),
    ];
    for (const secret of secrets) for (const text of surfaces) expect(text).not.toContain(secret);
  });

  it('signs out: the session is revoked on the store, the cookie cleared, and the page sends the browser to sign in again', async () => {
    const test = await start();
    const { cookie } = await signIn(test);
    const csrf = await csrfOf(test, cookie);
    const refused = await fetch(`${test.base}/engine/console/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: test.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=wrong',
    });
    expect(refused.status).toBe(403);
    expect((await test.get('/engine/status', { cookie })).status).toBe(200);
    const out = await fetch(`${test.base}/engine/console/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: test.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }).toString(),
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('login?signed-out');
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-corekit-console=; Path=\/; Max-Age=0;/);
    expect((await test.get('/engine/status', { cookie })).status).toBe(401);
    const page = await fetch(`${test.base}/engine/console`, {
      redirect: 'manual',
      headers: { cookie, accept: 'text/html' },
    });
    expect(page.status).toBe(303);
  });

  it('signs in with curl (JSON) and keeps the session across a restart on a durable store', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'console-sign-in-'));
    let second: Awaited<ReturnType<typeof start>> | undefined;
    try {
      const stores = { Stores: { Provider: 'File', Directory: directory } };
      const first = await start([], stores);
      const answer = await fetch(`${first.base}/engine/console/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { subject: string; csrfHeader: string; csrfToken: string };
      expect(body).toMatchObject({ subject: 'operator', csrfHeader: 'x-csrf-token' });
      const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
      await first.close();
      second = await start([], stores);
      expect((await second.get('/engine/status', { cookie })).status).toBe(200);
      const touched = await touch(second, { cookie, 'x-csrf-token': body.csrfToken });
      expect(touched.status).toBe(200);
    } finally {
      // The second host writes into the folder until it stops (checks, story, sessions): stopped first.
      await second?.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
