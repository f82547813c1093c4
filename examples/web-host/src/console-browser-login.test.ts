import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pollUntil } from '@corekit/testing/poll-until';
import { consoleBrowserFile, seriousViolations, signIn } from './console-browser/console-browser-file';
import { sampleRoot } from './sample-host';

// The console's browser sign-in (Engine:Console:Login, on in engine.production.json) in Debian's Chromium against
// one sample host in production (NODE_ENV=production, SAMPLE_OPERATOR_TOKEN): the sign-in page, a session cookie
// the host's authorize hook decided, the live page over the event stream, an approval carrying the CSRF token, a
// forged cross-site post and a same-origin change without the token refused, the operator audit, sign-out.

const operatorToken = 'operator-token-br0wser';
/**
 * engine.production.json, as a production process reads it (the engine reads engine.<NODE_ENV>.json from the
 * process's NODE_ENV, which jest sets to `test`, so the test hands the file's sections over as code options).
 */
const production = JSON.parse(readFileSync(path.join(sampleRoot, 'engine.production.json'), 'utf8')) as {
  Engine: Record<string, unknown>;
};

interface PageGlobals {
  readonly document: { querySelector(selector: string): unknown };
}

// The sample's production hook knows one identity (the operator token): it requests the run and approves it.
const file = consoleBrowserFile({
  sample: {
    environment: { NODE_ENV: 'production', SAMPLE_OPERATOR_TOKEN: operatorToken },
    engine: { ...production.Engine, Agents: { AllowSelfApproval: true } },
  },
});
const base = () => file.sample.base;
let forger: Server;
let forgerBase: string;

/** Another site (`localhost` is another site than `127.0.0.1`) whose page posts a form to the host. */
function startForger(): Promise<Server> {
  const server = createServer((request, response) => {
    const target = decodeURIComponent(new URL(request.url!, 'http://x').searchParams.get('target') ?? '');
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      `<!doctype html><html lang="en"><title>forger</title><form method="post" action="${target}" enctype="text/plain">` +
        `<input name='{"decision":"approve","x":"' value='"}'></form><script>document.forms[0].submit()</script></html>`,
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  forger = await startForger();
  forgerBase = `http://localhost:${(forger.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => forger?.close(resolve));
});

/** A run of the refund tool waiting for approval, requested with the operator token (an API client). */
async function runWaitingForApproval(): Promise<string> {
  const answer = await fetch(`${base()}/engine/agent-tools/issue-refund/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
    body: JSON.stringify({ arguments: JSON.stringify({ ticketId: 'T-200', amount: 12 }) }),
  });
  expect(answer.status).toBeLessThan(300);
  return ((await answer.json()) as { runId: string }).runId;
}

async function waitingForApproval(runId: string): Promise<boolean> {
  const answer = await fetch(`${base()}/engine/agent-tool-runs/${runId}`, {
    headers: { authorization: `Bearer ${operatorToken}` },
  });
  return ((await answer.json()) as { requiresApproval: boolean }).requiresApproval;
}

file.describe('signing in to the console from a browser in production', () => {
  it('sends a browser without a session to an accessible sign-in page that announces a refused credential', async () => {
    expect(production.Engine.Console).toEqual({ Login: { Enabled: true } });
    const { page } = await file.open();
    const answer = await page.goto(`${base()}/engine/console`);
    expect(answer!.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/engine/console/login');
    expect(await seriousViolations(page)).toEqual([]);
    // The refused attempt in the dark scheme: both schemes are checked once each.
    const dark = await file.open({ dark: true });
    await dark.page.goto(`${base()}/engine/console/login`);
    await signIn(dark.page, 'not-the-token');
    const alert = dark.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('The host refused this sign-in.');
    await expect(dark.page.getByLabel('Operator token').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await seriousViolations(dark.page)).toEqual([]);
  }, 60_000);

  it('signs in; the page is live over the event stream; an approval carries the CSRF token; forged and token-less changes are refused; the audit lists the action; sign-out revokes', async () => {
    const [approved, forged] = await Promise.all([runWaitingForApproval(), runWaitingForApproval()]);
    const { page, context, requests } = await file.openSignedIn(operatorToken);
    await page.locator('[data-dependency="inventory-api"] .badge', { hasText: 'Healthy' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/engine/console');
    const [cookie] = await context.cookies(base());
    expect(cookie).toMatchObject({
      name: '__Host-corekit-console',
      path: '/',
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
    });
    expect(await page.locator('.session-bar').textContent()).toContain('Signed in as operator');
    expect(await seriousViolations(page)).toEqual([]);

    // Live: the change is pushed over /engine/events, which the session cookie opened (EventSource sends no header).
    file.sample.sample.upstream.state.inventory = 'down';
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="failed"]', { timeout: 15_000 });
    expect(requests.some((url) => new URL(url).pathname === '/engine/events')).toBe(true);

    // An approval from the page: the session and its CSRF token.
    await page.goto(`${base()}/engine/console#/attention`);
    await page.locator(`[data-entry="${approved}"] button`, { hasText: 'Approve' }).click();
    await page.locator('.action-status', { hasText: 'Approve done' }).waitFor();
    expect(await waitingForApproval(approved)).toBe(false);

    // A page of another site posting to the host: the Strict cookie is not sent and nothing is decided.
    const attacker = await context.newPage();
    const refusal = attacker.waitForResponse((response) => response.url().includes(`/${forged}/decision`));
    const target = `${base()}/engine/agent-tool-runs/${forged}/decision`;
    await attacker.goto(`${forgerBase}/?target=${encodeURIComponent(target)}`);
    expect((await refusal).status()).toBeGreaterThanOrEqual(400);
    // The same change from the host's own origin with the cookie but without the token: 403 with a code.
    const tokenless = await page.evaluate(async (url) => {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approve' }),
      });
      return { status: answer.status, body: (await answer.json()) as { code: string } };
    }, `${base()}/engine/agent-tool-runs/${forged}/decision`);
    expect(tokenless).toEqual({ status: 403, body: expect.objectContaining({ code: 'CSRF_TOKEN_INVALID' }) });
    expect(await waitingForApproval(forged)).toBe(true);

    // The operator audit in the console: who approved what, and the refused attempt (written after the answer).
    await pollUntil(
      async () =>
        (await (
          await fetch(`${base()}/engine/operator-audit/refused`, {
            headers: { authorization: `Bearer ${operatorToken}` },
          })
        ).json()) as Array<{ code: string | null }>,
      (entries) => entries.some((entry) => entry.code === 'CSRF_TOKEN_INVALID'),
      { timeoutMs: 10_000 },
    );
    await page.goto(`${base()}/engine/console#/catalogs/operator-audit`);
    await page
      .locator('.catalog-row', { hasText: /operator via session: agents\.decide-run on .*succeeded \(200\)/ })
      .first()
      .waitFor();
    await page
      .locator('.catalog-row', { hasText: /CSRF_TOKEN_INVALID/ })
      .first()
      .waitFor();

    // Sign-out revokes the session: back to the sign-in page, and the console sends the browser there again.
    await page.goto(`${base()}/engine/console`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    expect(await context.cookies(base())).toEqual([]);
    await page.goto(`${base()}/engine/console`);
    expect(new URL(page.url()).pathname).toBe('/engine/console/login');
    await page.waitForFunction(
      () => !!(globalThis as unknown as PageGlobals).document.querySelector('form[action="login"]'),
    );
  }, 60_000);
});
