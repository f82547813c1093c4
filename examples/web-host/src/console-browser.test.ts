import { statSync } from 'node:fs';
import path from 'node:path';
import { pollUntil } from '@corekit/testing/poll-until';
import type { Page } from 'playwright-core';
import { consoleBrowserFile, seriousViolations } from './console-browser/console-browser-file';
import { startFreezableProxy } from './console-browser/freezable-proxy';
import { startSubPathProxy, type SubPathProxy } from './console-browser/sub-path-proxy';

// The operator console (@corekit/console) in Debian's Chromium, driven by playwright-core, against one sample
// host shared by the file (each test opens its own browser context and puts the fake upstreams back as it found
// them). Every wait is a condition on the DOM or on a request (Playwright polls it); nothing sleeps. The axe
// checks of every view are in console-browser-axe.test.ts, 1,000 dependencies in console-browser-scale.test.ts.

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

/** One entry of `/engine/dependencies`, as far as these tests read it. */
interface DependencyEntry {
  readonly id: string;
  readonly error: { readonly code: string } | null;
  readonly data?: Record<string, unknown>;
}

const file = consoleBrowserFile();
const openPage = file.open;

function row(page: Page, dependencyId: string) {
  return page.locator(`[data-dependency="${dependencyId}"]`);
}

file.describe('the operator console in Chromium', () => {
  it('shows each dependency live: a change arrives by push (no polling), under its own CSP, with no request elsewhere', async () => {
    const sample = file.sample;
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

    sample.sample.upstream.state.inventory = 'down';
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="failed"]', { timeout: 15_000 });
    await expect(row(page, 'inventory-api').textContent()).resolves.toContain('Failed');
    await expect(page.locator('[data-live-region]').textContent()).resolves.toMatch(
      /Inventory API is now Failed/,
    );
    // The change came over the event stream: the dependencies route was not read again.
    expect(dependencyReads()).toBe(readsBefore);

    sample.sample.upstream.state.inventory = 'up';
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="healthy"]', {
      timeout: 15_000,
    });
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.querySelectorAll('.strip-bar').length >= 6,
    );
    // A screenshot of the live overview (docs/console.png, the incident, is taken by the incidents file).
    const screenshot = path.join(sample.directory, 'console-live.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(0);

    expect(cspReports).toEqual([]);
    const origin = new URL(sample.base).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });

  it('labels timed out, failed and degraded three different ways, each detail with duration, timeout budget, error and every data key', async () => {
    const sample = file.sample;
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
      sample.sample.upstream.state.pricing = upstreamState;
      const badge = page.locator(`dialog .badge-${shown}`).first();
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
    // The host's connections are cut and new ones refused (what a browser sees of a host that exited), through a
    // proxy, so the file's host stays up for the other tests.
    const proxy = await startFreezableProxy(file.sample.base);
    file.afterTest(() => proxy.close());
    const { page } = await openPage();
    await page.goto(`${proxy.url}/engine/console`);
    await page.waitForSelector('[data-dependency="inventory-api"][data-state="healthy"]');
    proxy.cut();
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
    const sample = file.sample;
    const proxy: SubPathProxy = await startSubPathProxy(sample.base, '/ops');
    file.afterTest(() => proxy.close());
    const { page, requests } = await openPage();
    await page.goto(`${proxy.url}/engine/console#/dependencies/inventory-api`);
    await page.locator('h2', { hasText: 'Inventory API' }).waitFor();
    await page.reload();
    await page.locator('h2', { hasText: 'Inventory API' }).waitFor();
    await page.locator('p.connection', { hasText: 'Live' }).waitFor();
    for (const url of requests) expect(new URL(url).pathname.startsWith('/ops/')).toBe(true);
  });

  it('opens a dependency detail as a dialog from the keyboard: focus moves into it, Escape closes it and the focus returns to the row; a deep link opens it', async () => {
    const sample = file.sample;
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
    // The detail opens as a modal dialog and takes the focus (its heading).
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.activeElement?.tagName === 'H2',
    );
    await expect(page.evaluate<string>('document.activeElement?.textContent')).resolves.toBe('Inventory API');
    await expect(
      page.evaluate<boolean>('document.activeElement.closest("dialog")?.open === true'),
    ).resolves.toBe(true);
    expect(new URL(page.url()).hash).toBe('#/dependencies/inventory-api');
    expect(await seriousViolations(page)).toEqual([]);
    // Escape closes it, the address is the overview's again, and the focus is back on the row's link.
    await page.keyboard.press('Escape');
    await page.locator('dialog[data-dialog="dependency"]').waitFor({ state: 'detached' });
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.activeElement?.textContent === 'Inventory API',
    );
    await expect(page.evaluate<string>('document.activeElement?.tagName')).resolves.toBe('A');
    expect(new URL(page.url()).hash).toBe('#/');
    // A deep link opens the same dialog over the overview.
    await page.goto(`${sample.base}/engine/console#/dependencies/pricing-api`);
    await page.locator('dialog[open] h2', { hasText: 'Pricing API' }).waitFor();
    await page.locator('dialog[open] button', { hasText: 'Close' }).click();
    await page.waitForFunction(
      () => (globalThis as unknown as PageGlobals).document.activeElement?.textContent === 'Pricing API',
    );
  });
});
