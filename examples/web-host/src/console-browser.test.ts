import { mkdtempSync, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addConsole } from '@corekit/console';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { pollUntil } from '@corekit/testing/poll-until';
import { createWebHost } from '@corekit/web-host';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, seriousViolations } from './console-browser/chromium';
import { startSubPathProxy, type SubPathProxy } from './console-browser/sub-path-proxy';
import { createSampleHost } from './sample-host';

// The operator console (@corekit/console) in Debian's Chromium, driven by playwright-core, against the sample
// host. Every wait is a condition on the DOM or on a request (Playwright polls it); nothing sleeps.

/**
 * The page's globals as the predicates below use them (this project compiles without the DOM library). Wait
 * predicates are functions, never strings: Playwright would evaluate a string in the page, which its CSP forbids.
 */
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): unknown;
    querySelectorAll(
      selector: string,
    ): ArrayLike<{ getAttribute(name: string): string | null; readonly textContent: string | null }>;
    readonly activeElement: { readonly tagName: string; readonly textContent: string | null } | null;
  };
}

const describeInBrowser = chromiumAvailable() ? describe : describe.skip;

/** One entry of `/engine/dependencies`, as far as these tests read it. */
interface DependencyEntry {
  readonly id: string;
  readonly error: { readonly code: string } | null;
  readonly data?: Record<string, unknown>;
}
/** A screenshot of the live overview (docs/console.png, the incident, is taken by console-browser-incidents.test.ts). */
const screenshotPath = (directory: string) => path.join(directory, 'console.png');

let browser: Browser;
let directory: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  if (chromiumAvailable()) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'console-browser-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  rmSync(directory, { recursive: true, force: true });
});

/** The sample host with checks every second (the staleness bound is then 4 s), on its own port and folder. */
async function startSample() {
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    environment: {},
    logger: createMemoryLogger(),
    dataDirectory: directory,
    configuration: { Engine: { Observability: { DependencyHealth: { RefreshIntervalSeconds: 1 } } } },
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await sample.host.close();
  };
  cleanups.push(close);
  const { port } = await sample.host.listen();
  return { ...sample, base: `http://127.0.0.1:${port}`, close };
}

/** A page that records every request it makes and every CSP report the browser logs. */
async function openPage(options: { headers?: Record<string, string>; dark?: boolean } = {}) {
  const context: BrowserContext = await browser.newContext({
    extraHTTPHeaders: options.headers,
    colorScheme: options.dark ? 'dark' : 'light',
    viewport: { width: 1360, height: 900 },
  });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  const requests: string[] = [];
  const cspReports: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
  });
  return { page, requests, cspReports };
}

function row(page: Page, dependencyId: string) {
  return page.locator(`[data-dependency="${dependencyId}"]`);
}

describeInBrowser('the operator console in Chromium', () => {
  it('shows each dependency live: a change arrives by push (no polling), under its own CSP, with no request elsewhere', async () => {
    const sample = await startSample();
    const { page, requests, cspReports } = await openPage();
    const response = await page.goto(`${sample.base}/engine/console`);
    expect(response!.status()).toBe(200);
    const csp = response!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    await row(page, 'inventory-api').locator('.badge', { hasText: 'Healthy' }).waitFor();
    await expect(row(page, 'inventory-api').locator('.age').textContent()).resolves.toMatch(
      /checked \d+ s ago/,
    );
    const dependencyReads = () => requests.filter((url) => url.endsWith('/engine/dependencies')).length;
    const readsBefore = dependencyReads();

    sample.upstream.state.inventory = 'down';
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="failed"]', { timeout: 15_000 });
    await expect(row(page, 'inventory-api').textContent()).resolves.toContain('Failed');
    await expect(page.locator('[data-live-region]').textContent()).resolves.toMatch(
      /Inventory API is now Failed/,
    );
    // The change came over the event stream: the dependencies route was not read again.
    expect(dependencyReads()).toBe(readsBefore);

    sample.upstream.state.inventory = 'up';
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="healthy"]', {
      timeout: 15_000,
    });
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.querySelectorAll('.strip-bar').length >= 6,
    );
    mkdirSync(path.dirname(screenshotPath(directory)), { recursive: true });
    await page.screenshot({ path: screenshotPath(directory), fullPage: true });
    expect(statSync(screenshotPath(directory)).size).toBeGreaterThan(0);

    expect(cspReports).toEqual([]);
    const origin = new URL(sample.base).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });

  it('labels timed out, failed and degraded three different ways, each detail with duration, timeout budget, error and every data key', async () => {
    const sample = await startSample();
    const { page } = await openPage();
    await page.goto(`${sample.base}/engine/console#/dependencies/pricing-api`);
    await page.locator('h2', { hasText: 'Pricing API' }).waitFor();
    const labels: string[] = [];
    // hang: the fake upstream never answers, so the check really runs into its 2 s budget.
    const cases = [
      ['hang', 'timed-out', 'DEPENDENCY_TIMEOUT'],
      ['down', 'failed', 'UNEXPECTED_STATUS'],
      ['slow', 'degraded', 'none'],
    ] as const;
    for (const [upstreamState, shown, error] of cases) {
      sample.upstream.state.pricing = upstreamState;
      const badge = page.locator(`section .badge-${shown}`).first();
      await badge.waitFor({ timeout: 20_000 });
      labels.push((await badge.textContent())!.replace(/^\W+/u, '').trim());
      await page.locator('[data-fact="error"]', { hasText: error }).waitFor();
      await expect(page.locator('[data-fact="timeout"]').textContent()).resolves.toBe('2 s');
      await expect(page.locator('[data-fact="duration"]').textContent()).resolves.toMatch(
        /\d+(\.\d+)? (ms|s)/,
      );
      // Every key of the check's data, as the JSON route has it for this same result.
      const entry = await pollUntil(
        async () =>
          ((await (await fetch(`${sample.base}/engine/dependencies`)).json()) as DependencyEntry[]).find(
            (item) => item.id === 'pricing-api',
          )!,
        (item) => (item.error?.code ?? 'none') === error,
        { timeoutMs: 20_000 },
      );
      expect(Object.keys(entry.data ?? {})).toEqual(expect.arrayContaining(['target']));
      for (const key of Object.keys(entry.data ?? {})) {
        await page.locator('.data-table th', { hasText: key }).first().waitFor();
      }
    }
    expect(labels).toEqual(['Timed out', 'Failed', 'Degraded']);
    await page.waitForSelector('[data-fact="uptime"]');
    await expect(page.locator('a[href^="console/history/pricing-api"]').count()).resolves.toBe(1);
  }, 120_000);

  it('shows a banner when the host stops answering, and no dependency stays Healthy past its staleness bound', async () => {
    const sample = await startSample();
    const { page } = await openPage();
    await page.goto(`${sample.base}/engine/console`);
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="healthy"]');
    await sample.close();
    await page.locator('.banner-lost[role="alert"]').waitFor({ timeout: 15_000 });
    await expect(page.locator('.banner-lost').textContent()).resolves.toContain('The host stopped answering');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document.querySelectorAll('[data-state="healthy"]').length ===
        0,
      undefined,
      { timeout: 20_000 },
    );
    // Stale at once (the last result, no longer confirmed), Unknown once past the bound.
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="unknown"]', {
      timeout: 20_000,
    });
  });

  it('works behind a proxy under a sub-path: relative URLs only, a deep link reloads, the stream passes', async () => {
    const sample = await startSample();
    const proxy: SubPathProxy = await startSubPathProxy(sample.base, '/ops');
    cleanups.push(() => proxy.close());
    const { page, requests } = await openPage();
    await page.goto(`${proxy.url}/engine/console#/dependencies/inventory-api`);
    await page.locator('h2', { hasText: 'Inventory API' }).waitFor();
    await page.reload();
    await page.locator('h2', { hasText: 'Inventory API' }).waitFor();
    await page.locator('p.connection', { hasText: 'Live' }).waitFor();
    for (const url of requests) expect(new URL(url).pathname.startsWith('/ops/')).toBe(true);
  });

  it('has a keyboard-only path to a dependency detail and back, with visible focus', async () => {
    const sample = await startSample();
    const { page } = await openPage();
    await page.goto(`${sample.base}/engine/console`);
    await page.locator('a', { hasText: 'Inventory API' }).waitFor();
    let focusedText = '';
    for (let presses = 0; presses < 40 && focusedText !== 'Inventory API'; presses += 1) {
      await page.keyboard.press('Tab');
      focusedText = (await page.evaluate<string>("document.activeElement?.textContent ?? ''")).trim();
    }
    expect(focusedText).toBe('Inventory API');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.activeElement?.tagName === 'H2',
    );
    await expect(page.evaluate<string>('document.activeElement?.textContent')).resolves.toBe('Inventory API');
    await page.keyboard.press('Shift+Tab');
    await expect(page.evaluate<string>('document.activeElement?.textContent?.trim()')).resolves.toBe(
      '← All dependencies',
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.activeElement?.textContent === 'Overview',
    );
  });

  it('has no serious or critical axe-core violation on any view, in the light and the dark scheme', async () => {
    const sample = await startSample();
    for (const dark of [false, true]) {
      const { page } = await openPage({ dark });
      const views = [
        ['', '[data-dependency="inventory-api"]'],
        ['#/dependencies/inventory-api', '[data-fact="uptime"]'],
        ['#/story', '.story-row'],
        ['#/catalogs', '.catalog-index li'],
        ['#/catalogs/agent-tool-runs', '.filters'],
        ['#/attention', '.attention'],
        ['#/views', '[data-operator-view]'],
        // Each operator view a pack of the sample declares (builder.addOperatorView), opened on its own.
        ['#/views/cdc-capture-lag', '[data-operator-view="cdc-capture-lag"]'],
        ['#/views/cdc-reporter-coordination', '[data-operator-view="cdc-reporter-coordination"]'],
        ['#/views/knowledge-index-freshness', '[data-operator-view="knowledge-index-freshness"]'],
        ['#/views/invitation-delivery-attention', '[data-operator-view="invitation-delivery-attention"]'],
      ] as const;
      for (const [fragment, ready] of views) {
        await page.goto(`${sample.base}/engine/console${fragment}`);
        await page.locator(ready).first().waitFor();
        const violations = await seriousViolations(page);
        expect([dark ? 'dark' : 'light', fragment, violations]).toEqual([
          dark ? 'dark' : 'light',
          fragment,
          [],
        ]);
      }
    }
  }, 240_000);

  it("lists every pack's operator view, each row linked to the pack's JSON route", async () => {
    const sample = await startSample();
    const { page } = await openPage();
    await page.goto(`${sample.base}/engine/console#/views`);
    await page.locator('[data-operator-view="invitation-delivery-attention"]').waitFor();
    const shown = await page
      .locator('[data-operator-view]')
      .evaluateAll((nodes) =>
        nodes.map((node) => (node as unknown as { dataset: { operatorView: string } }).dataset.operatorView),
      );
    expect(shown).toEqual(
      expect.arrayContaining([
        'cdc-capture-lag',
        'cdc-reporter-coordination',
        'knowledge-index-freshness',
        'invitation-delivery-attention',
      ]),
    );
    const listLink = page.locator('[data-operator-view="cdc-capture-lag"] p.muted a');
    await expect(listLink.getAttribute('href')).resolves.toBe('cdc-captures/runtime');
  });

  it('sends /engine/console/ (trailing slash) to /engine/console, where the page works', async () => {
    const sample = await startSample();
    const { page } = await openPage();
    await page.goto(`${sample.base}/engine/console/#/views`);
    expect(new URL(page.url()).pathname).toBe('/engine/console');
    await page.locator('[data-operator-view]').first().waitFor();
  });

  it('approves a run waiting for approval through the agents pack operation, which the authorize hook decides', async () => {
    const sample = await startSample();
    const requested = await fetch(`${sample.base}/engine/agent-tools/issue-refund/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-agent' },
      body: JSON.stringify({ arguments: JSON.stringify({ ticketId: 'T-100', amount: 12 }) }),
    });
    const run = (await requested.json()) as { runId: string };
    expect(requested.status).toBeLessThan(300);

    // Without a credential the pack's operation refuses: the console offers the action, the host decides.
    const anonymous = await openPage();
    await anonymous.page.goto(`${sample.base}/engine/console#/attention`);
    await anonymous.page.locator(`[data-entry="${run.runId}"] button`, { hasText: 'Approve' }).click();
    await anonymous.page.locator('.action-status', { hasText: 'Approve refused' }).waitFor();

    const approver = await openPage({ headers: { authorization: 'Bearer demo-approver' } });
    await approver.page.goto(`${sample.base}/engine/console#/attention`);
    await approver.page.locator(`[data-entry="${run.runId}"] button`, { hasText: 'Approve' }).click();
    await approver.page.locator('.action-status', { hasText: 'Approve done' }).waitFor();
    await approver.page.waitForFunction(
      (runId) => !(globalThis as unknown as PageGlobals).document.querySelector(`[data-entry="${runId}"]`),
      run.runId,
    );
    const after = (await (await fetch(`${sample.base}/engine/agent-tool-runs/${run.runId}`)).json()) as {
      requiresApproval: boolean;
    };
    expect(after.requiresApproval).toBe(false);
  });

  it('filters the runtime story timeline by kind and text', async () => {
    const sample = await startSample();
    const { page } = await openPage();
    await page.goto(`${sample.base}/engine/console#/story`);
    await page.locator('.story-row').first().waitFor();
    await page.selectOption('select', 'module');
    await page.waitForFunction(() =>
      Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('.story-row')).every(
        (row) => row.getAttribute('data-kind') === 'module',
      ),
    );
    await page.fill('input[type="search"]', 'support-desk');
    await page.waitForFunction(() => {
      const rows = Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('.story-row'));
      return rows.length > 0 && rows.every((row) => (row.textContent ?? '').includes('support-desk'));
    });
  });

  it('renders 1,000 dependencies in a virtualised list and filters them', async () => {
    const builder = createEngineBuilder({
      contentRoot: directory,
      environment: {},
      logger: createMemoryLogger(),
      configuration: { Engine: { Transports: ['RestApi', 'ServerSentEvents'] } },
    });
    for (let index = 0; index < 1000; index += 1) {
      const id = `dep-${String(index).padStart(4, '0')}`;
      builder.addDependencyHealthContributor({
        id,
        displayName: `Dependency ${id}`,
        kind: 'Test',
        required: false,
        refreshIntervalSeconds: 3600,
        check: async () => ({ status: 'Healthy' }),
      });
    }
    addConsole(builder);
    const host = createWebHost(builder, { port: 0, handleSignals: false, environment: {} });
    cleanups.push(() => host.close());
    const { port } = await host.listen();
    const { page } = await openPage();
    await page.goto(`http://127.0.0.1:${port}/engine/console`);
    await page.locator('h3', { hasText: 'Dependencies (1000)' }).waitFor();
    await page.locator('[data-dependency="dep-0000"]').waitFor();
    const rendered = await page.locator('li.virtual-row').count();
    expect(rendered).toBeLessThan(40);
    await expect(page.locator('li.virtual-row').first().getAttribute('aria-setsize')).resolves.toBe('1000');
    // The time from a filter keystroke to the painted list, reported (not asserted: these machines are noisy).
    const filterMs = await page.evaluate<number>(`(async () => {
      const input = document.querySelector('input[type="search"]');
      const started = performance.now();
      input.value = 'dep-0999';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return performance.now() - started;
    })()`);
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.querySelectorAll('li.virtual-row').length === 1,
    );
    await page.locator('[data-dependency="dep-0999"]').waitFor();
    process.stdout.write(`console: 1,000 dependencies filtered and painted in ${filterMs.toFixed(1)} ms\n`);
  }, 90_000);
});
