import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReplicaSet } from '@corekit/testing/replica-harness';
import { BrowserSession } from '../console-browser/browser-session';
import { chromiumAvailable, seriousViolations } from '../console-browser/chromium';
import { sampleRoot } from '../sample-host';

/** `docs/console-instances.png` is rewritten only on request (`COREKIT_UPDATE_SCREENSHOT=1`). */
const screenshotPath = path.resolve(sampleRoot, '..', '..', 'docs', 'console-instances.png');

/**
 * The console of a surviving replica, in Debian's Chromium, once `victimId` was SIGKILLed and every survivor
 * lists it offline: the instances view shows it offline and the survivors online, the service Degraded across
 * them, the offline change from the story, the victim's own state one click away (its catalog entry), the
 * overview's card says so too, and axe finds nothing serious. One browser for the check, closed after it.
 */
export async function consoleShowsInstanceOffline(
  set: ReplicaSet,
  on: number,
  victimId: string,
  survivorIds: readonly string[],
): Promise<void> {
  if (!chromiumAvailable()) return;
  const session = await BrowserSession.launch();
  try {
    const { page } = await session.open();
    await page.goto(`${set.replica(on).url}/engine/console#/instances`);
    await page.locator(`[data-instance="${victimId}"][data-presence="offline"]`).waitFor({ timeout: 15_000 });
    for (const id of survivorIds) {
      await page.locator(`[data-instance="${id}"][data-presence="online"]`).waitFor();
    }
    // Waited for, not read once: on a loaded machine a survivor may miss a heartbeat and be offline a moment.
    await page.locator('[data-service-status="Degraded"]').waitFor();
    await page
      .locator('[data-fact="instances-count"]', {
        hasText: new RegExp(`^${survivorIds.length} of \\d+ instances online · \\d+ offline`),
      })
      .waitFor();
    // The change as this replica's story recorded it (kind engine.instance), pushed or read at load.
    await page.locator(`[data-instance-transition="${victimId}>offline"]`).waitFor();
    // The victim's own state, one click away: its catalog entry, as every replica reads it from the store.
    await page.locator(`[data-instance="${victimId}"] a`).click();
    const detail = page.locator(`[data-instance-detail="${victimId}"]`);
    await detail.waitFor();
    await expect(detail.locator('[data-fact="presence"]').first().textContent()).resolves.toContain(
      'offline',
    );
    await expect(detail.locator(`a[href="instances/${encodeURIComponent(victimId)}"]`).count()).resolves.toBe(
      1,
    );
    expect(await seriousViolations(page)).toEqual([]);
    if (process.env.COREKIT_UPDATE_SCREENSHOT === '1') {
      writeFileSync(screenshotPath, await page.screenshot({ fullPage: true }));
    }
    // The overview's card: the service across its instances.
    await page.goto(`${set.replica(on).url}/engine/console#/`);
    await page
      .locator('[data-card="instances"] [data-fact="instances-summary"]', { hasText: 'offline' })
      .waitFor();
  } finally {
    await session.close();
  }
}
