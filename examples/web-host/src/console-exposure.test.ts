import { createMemoryLogger } from '@corekit/engine-core';
import { webSocketUpgradeAnswer } from '@corekit/testing/websocket-upgrade';
import type { WebHost } from '@corekit/web-host';
import { createSampleHost } from './sample-host';
import { testDataDirectory } from './test-support/test-data-directory';

const dataDirectory = testDataDirectory();

// With NODE_ENV=production the sample's operator surfaces (the console's page, an asset and an operation,
// /engine, /metrics, the event WebSocket) refuse a caller exactly alike: the web host's one exposure gate.

const hosts: WebHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

const operatorToken = 'operator-token-c0ns0le';

async function start(environment: Record<string, string>) {
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    dataDirectory,
    environment: { NODE_ENV: 'production', ...environment },
    logger: createMemoryLogger(),
  });
  hosts.push(sample.host);
  const { port } = await sample.host.listen();
  return `http://127.0.0.1:${port}`;
}

/** [surface, status, problem code, WWW-Authenticate] for each operator surface, with the given headers. */
async function answers(base: string, assetPath: string, headers: Record<string, string>) {
  const rows: Array<[string, number, string | null, string | null]> = [];
  for (const path of ['/engine/console', assetPath, '/engine/console/info', '/engine', '/metrics']) {
    const answer = await fetch(`${base}${path}`, { headers });
    const problem = /problem\+json/.test(answer.headers.get('content-type') ?? '')
      ? ((await answer.json()) as { code: string }).code
      : (await answer.arrayBuffer(), null);
    rows.push([path, answer.status, problem, answer.headers.get('www-authenticate')]);
  }
  const upgrade = await webSocketUpgradeAnswer(`${base}/engine/events/ws`, headers);
  rows.push([
    '/engine/events/ws (upgrade)',
    upgrade.status,
    upgrade.body ? (JSON.parse(upgrade.body) as { code: string }).code : null,
    (upgrade.headers['www-authenticate'] as string | undefined) ?? null,
  ]);
  return rows;
}

/** The console's script, as its page names it (hashed), under /engine. */
async function consoleAsset(base: string): Promise<string> {
  const page = await (
    await fetch(`${base}/engine/console`, { headers: { authorization: `Bearer ${operatorToken}` } })
  ).text();
  return `/engine/${/src="([^"]+)"/.exec(page)![1]}`;
}

describe('the console in production, behind the one exposure gate of the sample host', () => {
  it('refuses an anonymous request on every operator surface with the same 401 and Bearer challenge', async () => {
    const base = await start({ SAMPLE_OPERATOR_TOKEN: operatorToken });
    const asset = await consoleAsset(base);
    const surfaces = ['/engine/console', asset, '/engine/console/info', '/engine', '/metrics'];
    expect(await answers(base, asset, {})).toEqual([
      ...surfaces.map((path) => [path, 401, 'UNAUTHENTICATED', 'Bearer']),
      ['/engine/events/ws (upgrade)', 401, 'UNAUTHENTICATED', 'Bearer'],
    ]);
    expect(await answers(base, asset, { authorization: 'Bearer not-the-token' })).toEqual([
      ...surfaces.map((path) => [path, 403, 'FORBIDDEN', null]),
      ['/engine/events/ws (upgrade)', 403, 'FORBIDDEN', null],
    ]);
    const admitted = await answers(base, asset, { authorization: `Bearer ${operatorToken}` });
    expect(admitted.map(([path, status]) => [path, status])).toEqual([
      ...surfaces.map((path) => [path, 200]),
      ['/engine/events/ws (upgrade)', 101],
    ]);
  });

  it('without SAMPLE_OPERATOR_TOKEN nobody is an operator: 403 on every surface, whatever the credential', async () => {
    const base = await start({});
    // The asset's (hashed) name is the same on every host; read it from one that admits the operator.
    const asset = await consoleAsset(await start({ SAMPLE_OPERATOR_TOKEN: operatorToken }));
    for (const headers of [{}, { authorization: 'Bearer anything' }] as Array<Record<string, string>>) {
      const rows = await answers(base, asset, headers);
      expect(rows.map(([path, status, code]) => [path, status, code])).toEqual(
        rows.map(([path]) => [path, 403, 'FORBIDDEN']),
      );
    }
  });
});
