import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { npm, registryAttempts, withWorkspaceDependencies } from './test-support/consumer-install';

describe('the adoption test packs what a consumer install needs', () => {
  it('adds every workspace package the requested ones depend on at run time, transitively', () => {
    const folders = withWorkspaceDependencies(['web-host', 'probe-redis']);
    // web-host reads request bodies through transport-kit and runs on worker-host; probes sit on probe-kit.
    expect(folders).toEqual(
      expect.arrayContaining(['web-host', 'probe-redis', 'transport-kit', 'worker-host', 'probe-kit']),
    );
    expect(new Set(folders).size).toBe(folders.length);
    expect(folders).not.toContain('testing');
  });
});

/**
 * A local registry for one package, `tiny@1.0.0`, that resets every connection (a registry failing under load)
 * until `recover()`. A consumer project depends on `tiny` and on a tarball that has `tiny` as a peer: the shape of
 * the adoption test's install, where npm reports the unfetched manifest as `Found: tiny@undefined`.
 */
async function flakyRegistry() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'corekit-flaky-registry-'));
  const pack = (name: string, manifest: object) => {
    const folder = path.join(root, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
    const file = execFileSync('npm', ['pack', '--silent', '--pack-destination', root], {
      cwd: folder,
      encoding: 'utf8',
    }).trim();
    return path.join(root, file);
  };
  const tinyTarball = readFileSync(pack('tiny', {}));
  const peerTarball = pack('uses-tiny', { peerDependencies: { tiny: '^1.0.0' } });
  let healthy = false;
  const server = http.createServer((request, response) => {
    if (!healthy) {
      request.socket.destroy();
      return;
    }
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url === '/tiny') {
      const integrity = `sha512-${createHash('sha512').update(tinyTarball).digest('base64')}`;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          name: 'tiny',
          'dist-tags': { latest: '1.0.0' },
          versions: {
            '1.0.0': {
              name: 'tiny',
              version: '1.0.0',
              dist: { tarball: `${base}/tiny/-/tiny-1.0.0.tgz`, integrity },
            },
          },
        }),
      );
      return;
    }
    if (request.url === '/tiny/-/tiny-1.0.0.tgz') {
      response.end(tinyTarball);
      return;
    }
    response.statusCode = 404;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const project = path.join(root, 'consumer');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      version: '1.0.0',
      dependencies: { tiny: '^1.0.0', 'uses-tiny': `file:${peerTarball}` },
    }),
  );
  return {
    project,
    cache: path.join(root, 'npm-cache'),
    registry: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    recover: () => (healthy = true),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

describe('npm in the adoption test, when registry requests fail', () => {
  const saved = { registry: process.env.npm_config_registry, retries: process.env.npm_config_fetch_retries };
  afterEach(() => {
    for (const [name, value] of [
      ['npm_config_registry', saved.registry],
      ['npm_config_fetch_retries', saved.retries],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('runs the install again and succeeds once the registry answers', async () => {
    const registry = await flakyRegistry();
    try {
      process.env.npm_config_registry = registry.registry;
      process.env.npm_config_fetch_retries = '0'; // npm's own retries back off for 10 s and more
      const retries: string[][] = [];
      await npm(registry.project, ['install'], registry.cache, 120_000, (failed) => {
        retries.push([...failed]);
        registry.recover();
      });
      // The first run failed on the reset requests only; the second installed from the recovered registry.
      expect(retries).toHaveLength(1);
      expect(retries[0]!.length).toBeGreaterThan(0);
      for (const line of retries[0]!)
        expect(line).toMatch(/^GET \S+\/tiny attempt \d+ failed with ECONNRESET/);
      const installed = JSON.parse(
        readFileSync(path.join(registry.project, 'node_modules/tiny/package.json'), 'utf8'),
      ) as { version: string };
      expect(installed.version).toBe('1.0.0');
    } finally {
      await registry.close();
    }
  }, 180_000);

  it('gives up after the last attempt and names every failed request instead of "undefined"', async () => {
    const registry = await flakyRegistry();
    try {
      process.env.npm_config_registry = registry.registry;
      process.env.npm_config_fetch_retries = '0';
      const failure = await npm(registry.project, ['install'], registry.cache, 120_000).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failure).toContain(`run ${registryAttempts} of at most ${registryAttempts}`);
      expect(failure).toContain('Found: tiny@undefined');
      for (let run = 1; run <= registryAttempts; run++)
        expect(failure).toMatch(
          new RegExp(`run ${run}: GET ${registry.registry}tiny attempt 1 failed with ECONNRESET`),
        );
    } finally {
      await registry.close();
    }
  }, 180_000);
});
