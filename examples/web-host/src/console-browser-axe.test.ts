import { consoleBrowserFile, seriousViolations } from './console-browser/console-browser-file';

// axe-core on every view of the operator console, in the light and the dark scheme, in Debian's Chromium against
// the sample host: zero serious or critical violations. A file of its own so CI runs it beside the others.

const file = consoleBrowserFile();

/** Each view and what shows it is loaded. */
const views = [
  ['', '[data-dependency="inventory-api"]'],
  ['#/dependencies/inventory-api', '[data-fact="uptime"]'],
  ['#/story', '.story-row'],
  ['#/instances', '[data-instance]'],
  ['#/catalogs', '.catalog-index li'],
  ['#/catalogs/agent-tool-runs', '.filters'],
  ['#/attention', '.attention'],
  ['#/views', '[data-operator-view]'],
  // Each operator view a pack of the sample declares (builder.addOperatorView), opened on its own.
  ['#/views/cdc-capture-lag', '[data-operator-view="cdc-capture-lag"]'],
  ['#/views/cdc-reporter-coordination', '[data-operator-view="cdc-reporter-coordination"]'],
  ['#/views/knowledge-index-freshness', '[data-operator-view="knowledge-index-freshness"]'],
  ['#/views/invitation-delivery-attention', '[data-operator-view="invitation-delivery-attention"]'],
  // A view with a pack's form (the alerts pack's New silence).
  ['#/views/alert-silences-active', 'form[data-form="alerts.create-silence"]'],
] as const;

file.describe('the operator console is accessible', () => {
  for (const dark of [false, true]) {
    const scheme = dark ? 'dark' : 'light';
    it(`has no serious or critical axe-core violation on any view, in the ${scheme} scheme`, async () => {
      const { page } = await file.open({ dark });
      for (const [fragment, ready] of views) {
        await page.goto(`${file.sample.base}/engine/console${fragment}`);
        await page.locator(ready).first().waitFor();
        const violations = await seriousViolations(page);
        expect([scheme, fragment, violations]).toEqual([scheme, fragment, []]);
      }
    }, 60_000);
  }
});
