import { randomBytes } from 'node:crypto';
import { pollUntil } from '@corekit/testing/poll-until';
import { consoleBrowserFile, seriousViolations } from './console-browser/console-browser-file';

// The alerts pack (@corekit/alerts, installed by the sample host) in the console, in Debian's Chromium: its open
// incidents, its silences (one created from the page, with the time left until it ends, then expired) and its
// delivery log, all through the operator views and forms the pack declares (the console names no pack). One
// sample host with an operator token (the silence operations ask for the policy alerts.silence, which the sample
// grants to it) and a group window of 1 s, so a notification is sent within seconds.

const token = `console-alerts-${randomBytes(8).toString('hex')}`;
const file = consoleBrowserFile({
  sample: {
    environment: { SAMPLE_OPERATOR_TOKEN: token },
    engine: { Alerts: { GroupWindow: '1s', EvaluationInterval: '1s' } },
  },
});

const operator = { authorization: `Bearer ${token}` };

async function readJson<T>(path: string): Promise<T> {
  return (await (await fetch(`${file.sample.base}${path}`, { headers: operator })).json()) as T;
}

file.describe("the alerts pack's incidents, silences and delivery log in the console", () => {
  it('shows the open incident and its delivery; creates a silence from the page with the time left until it ends, and expires it', async () => {
    file.sample.sample.upstream.state.inventory = 'down';
    // The dependency alert fires after three failed checks; the incident is notified once the group window passed.
    await pollUntil(
      () => readJson<Array<{ incidentId: string }>>('/engine/alert-incidents/open'),
      (open) => open.length > 0,
      { timeoutMs: 20_000 },
    );
    await pollUntil(
      () => readJson<Array<{ outcome: string; notifierId: string }>>('/engine/alert-deliveries'),
      (log) => log.some((entry) => entry.outcome === 'delivered'),
      { timeoutMs: 20_000 },
    );
    const { page } = await file.open({ headers: operator });
    await page.goto(`${file.sample.base}/engine/console#/views/alert-incidents-open`);
    const incident = page.locator('[data-operator-view="alert-incidents-open"] tbody tr').first();
    await expect(incident.textContent()).resolves.toContain('dependency:inventory-api');
    // The opening time is a machine-readable time (the column's format), not the raw string.
    expect(
      Date.parse((await incident.locator('time').first().getAttribute('datetime'))!),
    ).toBeLessThanOrEqual(Date.now());
    // The delivery log is the pack's catalog, listed like every catalog (each entry says its outcome).
    await page.goto(`${file.sample.base}/engine/console#/catalogs/alert-deliveries`);
    await page.locator('.catalog-row', { hasText: 'delivered' }).first().waitFor();

    // A silence from the page: the pack's form, sent to its operation as the JSON body.
    await page.goto(`${file.sample.base}/engine/console#/views/alert-silences-active`);
    const form = page.locator('form[data-form="alerts.create-silence"]');
    await form.getByLabel('Dependency id').fill('inventory-api');
    await form.getByLabel('Ends in (minutes)').fill('30');
    await form.getByLabel(/^Comment/).fill('known outage of the inventory upstream');
    const sentAt = Date.now();
    await form.locator('button[type="submit"]').click();
    await form.locator('[data-form-status]', { hasText: 'New silence: done.' }).waitFor();
    const row = page.locator('[data-operator-view="alert-silences-active"] tbody tr').first();
    await row.waitFor();
    const countdown = row.locator('time[data-countdown]');
    const endsAt = Date.parse((await countdown.getAttribute('datetime'))!);
    expect(endsAt - sentAt).toBeGreaterThan(29 * 60_000);
    expect(endsAt - sentAt).toBeLessThanOrEqual(30 * 60_000 + 60_000);
    const first = await countdown.textContent();
    expect(first).toMatch(/^in (29|30) min \d+ s$/);
    // It counts down (ticking in the page, no request).
    await page.waitForFunction(
      (before) =>
        (
          globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }
        ).document.querySelector('[data-operator-view="alert-silences-active"] time[data-countdown]')
          ?.textContent !== before,
      first,
    );
    await expect(row.textContent()).resolves.toContain('known outage of the inventory upstream');
    const silences = await readJson<Array<{ silenceId: string; matchers: unknown; createdBy: string }>>(
      '/engine/alert-silences/active',
    );
    expect(silences).toEqual([
      expect.objectContaining({ matchers: { dependencyId: 'inventory-api' }, createdBy: 'operator' }),
    ]);
    expect(await seriousViolations(page)).toEqual([]);

    // Without the operator's credential the pack's operation refuses: offering the form grants nothing.
    const anonymous = await file.open();
    await anonymous.page.goto(`${file.sample.base}/engine/console#/views/alert-silences-active`);
    const refusedForm = anonymous.page.locator('form[data-form="alerts.create-silence"]');
    await refusedForm.getByLabel('Dependency id').fill('pricing-api');
    await refusedForm.getByLabel(/^Comment/).fill('not allowed');
    await refusedForm.locator('button[type="submit"]').click();
    await refusedForm.locator('[data-form-status]', { hasText: 'New silence refused' }).waitFor();

    // Expire, the pack's row action: the silence leaves the view.
    await row.locator('button', { hasText: 'Expire' }).click();
    await page
      .locator('[data-operator-view="alert-silences-active"] tbody tr')
      .waitFor({ state: 'detached' });
    await expect(readJson<unknown[]>('/engine/alert-silences/active')).resolves.toEqual([]);
  }, 60_000);
});
