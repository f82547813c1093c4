import { consoleBrowserFile } from './console-browser/console-browser-file';

// The operator console in Debian's Chromium against one sample host shared by the file: the packs' operator
// views, the trailing-slash redirect, an action through a pack's operation (approving an agent run), and the
// story filter. Every wait is a condition; nothing sleeps.

/** The page's globals as the predicates below use them (this project compiles without the DOM library). */
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): unknown;
    querySelectorAll(
      selector: string,
    ): ArrayLike<{ getAttribute(name: string): string | null; readonly textContent: string | null }>;
  };
}

const file = consoleBrowserFile();
const openPage = file.open;

file.describe("the operator console's views and actions in Chromium", () => {
  it("lists every pack's operator view, each row linked to the pack's JSON route", async () => {
    const sample = file.sample;
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
    const sample = file.sample;
    const { page } = await openPage();
    await page.goto(`${sample.base}/engine/console/#/views`);
    expect(new URL(page.url()).pathname).toBe('/engine/console');
    await page.locator('[data-operator-view]').first().waitFor();
  });

  it('approves a run waiting for approval through the agents pack operation, which the authorize hook decides', async () => {
    const sample = file.sample;
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
    const sample = file.sample;
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
});
