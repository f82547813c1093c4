import { randomUUID } from 'node:crypto';
import type { InstanceEntry } from '@corekit/abstractions';
import { dropStoreNamespace } from '@corekit/testing/replica-harness';
import { requireService } from '@corekit/testing/require-service';
import { consoleBrowserFile } from './console-browser/console-browser-file';
import { startConsoleSample, type ConsoleSample } from './console-browser/console-session';
import { startFreezableProxy, type FreezableProxy } from './console-browser/freezable-proxy';

// The console's instances view (issue 55, item 4) on two sample hosts sharing one Redis store (a key prefix of
// their own), with presence in seconds through configuration (Engine:Presence: a heartbeat every 500 ms, offline
// after 3 s, the record removed after 8 s). The second host reaches Redis through a proxy the test freezes (nothing passes,
// nothing closes): it stops heartbeating (what a hung or partitioned replica leaves behind), and the first host's console shows it
// offline, then no longer lists it. Every wait is a condition. Under CI=true a missing Redis fails the file.

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keyPrefix = `corekit:console-instances:${randomUUID().slice(0, 12)}:`;
const presence = { HeartbeatInterval: '500ms', OfflineAfter: '3s', RemoveAfter: '8s' };

const file = consoleBrowserFile({ sample: false });
let observer: ConsoleSample | undefined;
let victim: ConsoleSample | undefined;
let proxy: FreezableProxy | undefined;

/** A sample host whose stores (and so its heartbeats) are on Redis at `url`, under the file's key prefix. */
const onRedis = (url: string) =>
  startConsoleSample({
    engine: { Stores: { Provider: 'Redis', Redis: { Url: url, KeyPrefix: keyPrefix } }, Presence: presence },
  });

beforeAll(async () => {
  if (!(await requireService('Redis', redisUrl, 'REDIS_URL'))) return;
  proxy = await startFreezableProxy(redisUrl);
  [observer, victim] = await Promise.all([onRedis(redisUrl), onRedis(proxy.url.replace(/^http:/, 'redis:'))]);
}, 60_000);
afterAll(async () => {
  // The victim's held commands pass again, so it stops gracefully; then the file's keys go.
  proxy?.thaw();
  await victim?.close();
  await observer?.close();
  await proxy?.close();
  await dropStoreNamespace({ provider: 'redis', keyPrefix }, redisUrl);
});

async function instances(sample: ConsoleSample): Promise<InstanceEntry[]> {
  return (await (await fetch(`${sample.base}/engine/instances`)).json()) as InstanceEntry[];
}

file.describe("the console's instances view with presence in seconds", () => {
  it('shows an instance that stopped heartbeating offline, then removes it from the view once its record is older than RemoveAfter', async () => {
    if (!observer || !victim || !proxy) return;
    const victimId = (await instances(victim)).find((entry) => entry.current)!.instanceId;
    const { page } = await file.open();
    await page.goto(`${observer.base}/engine/console#/instances`);
    const row = page.locator(`[data-instance="${victimId}"]`);
    await page.locator(`[data-instance="${victimId}"][data-presence="online"]`).waitFor();
    await page.locator('[data-fact="instances-count"]', { hasText: /^2 of 2 instances online/ }).waitFor();

    proxy.freeze();
    await page.locator(`[data-instance="${victimId}"][data-presence="offline"]`).waitFor();
    await page.locator(`[data-instance-transition="${victimId}>offline"]`).waitFor();
    await page.locator('[data-service-status="Degraded"]').waitFor();

    // Removed after RemoveAfter: gone from the rows, the removal in the view's changes, the service whole again.
    await row.waitFor({ state: 'detached' });
    await page.locator(`[data-instance-transition="${victimId}>removed"]`).waitFor();
    await page.locator('[data-fact="instances-count"]', { hasText: /^1 of 1 instance online/ }).waitFor();
    expect((await instances(observer)).map((entry) => entry.instanceId)).not.toContain(victimId);
  }, 60_000);
});
