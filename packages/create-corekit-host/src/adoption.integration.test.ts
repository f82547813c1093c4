// The adoption test (integration, several minutes): scaffold a web host (http and redis probes) and a worker host
// the way a consumer would, install @corekit/* from `pnpm pack` tarballs and everything else from the registry,
// build, run the README's commands, start the hosts, verify the systemd unit, check every YAML against the
// configuration, and start the host from the app-service ZIP. Needs built dist/ of the packed packages, Redis on
// REDIS_URL (default redis://127.0.0.1:6379) and the npm registry.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import { parse } from 'yaml';
import { requireService } from '@corekit/testing/require-service';
import { loadCatalog } from './catalog';
import { generateHost } from './generate';
import { readDeploySettings, readEngineConfiguration } from './host-configuration';
import {
  freePort,
  npm,
  packWorkspacePackages,
  startHost,
  useTarballs,
  waitForStatus,
  workspaceRoot,
} from './test-support/consumer-install';

jest.setTimeout(20 * 60_000);
const run = promisify(execFile);
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const packed = [
  'abstractions',
  'engine-core',
  'web-host',
  'worker-host',
  'observability',
  'probe-kit',
  'probe-http',
  'probe-redis',
];
const installTimeout = 8 * 60_000;

let root = '';
let cache = '';
let web = '';
let worker = '';
let upstream: http.Server;
let upstreamUrl = '';
let redisReachable = false;

const redisEnvironment = () => ({
  Engine__Observability__DependencyHealth__Redis__Dependencies__0__Host: redisUrl.hostname,
  Engine__Observability__DependencyHealth__Redis__Dependencies__0__Port: redisUrl.port || '6379',
});

beforeAll(async () => {
  redisReachable = await requireService(
    'Redis',
    `http://${redisUrl.hostname}:${redisUrl.port || 6379}`,
    'REDIS_URL',
  );
  if (!redisReachable) return;
  root = mkdtempSync(path.join(os.tmpdir(), 'corekit-adoption-'));
  // npm's own cache (npm_config_cache, else ~/.npm), as a consumer's install uses it: a machine that ran this
  // test before installs the registry's packages from it (`--prefer-offline`), a fresh one fetches them once for
  // both hosts. The @corekit packages come from this run's tarballs, never from the cache.
  cache = process.env.npm_config_cache || path.join(os.homedir(), '.npm');
  const tarballs = await packWorkspacePackages(
    [...packed, 'create-corekit-host'],
    mkdtempSync(path.join(root, 'tgz-')),
  );
  upstream = http.createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/health`;

  // The web host through the library, the worker host through the built command line (what npm create runs).
  web = path.join(root, 'orders-web');
  generateHost(
    { directory: web, host: 'web', probes: ['http', 'redis'], packs: [], targets: allTargets() },
    loadCatalog(workspaceRoot),
  );
  worker = path.join(root, 'billing-worker');
  await run(
    process.execPath,
    [
      path.join(workspaceRoot, 'packages/create-corekit-host/dist/cli.js'),
      worker,
      '--host',
      'worker',
      '--probes',
      'redis',
      '--yes',
    ],
    { cwd: root, timeout: 60_000 },
  );
  for (const directory of [web, worker]) {
    useTarballs(directory, tarballs);
    // The second install reuses the first one's cache. An install whose registry requests failed runs again.
    await npm(directory, ['install', '--prefer-offline'], cache, installTimeout, (failed) =>
      console.warn(
        `npm install in ${directory}: registry requests failed, running it again:\n${failed.join('\n')}`,
      ),
    );
    await npm(directory, ['run', 'build'], cache, 120_000);
  }
});

afterAll(async () => {
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  if (root) rmSync(root, { recursive: true, force: true });
});

function allTargets() {
  return [
    'container',
    'kubernetes',
    'container-app',
    'systemd',
    'windows-service',
    'iis',
    'app-service-zip',
  ] as const;
}

/** Asserts the adoption routes of a running host. */
async function expectAdoptionRoutes(url: string, readyWithin: number, output: () => string) {
  const ready = await waitForStatus(`${url}/health/ready`, 200, readyWithin);
  if (ready !== 200)
    throw new Error(`/health/ready answered ${ready} within ${readyWithin} s; host output:\n${output()}`);
  for (const route of ['/engine', '/engine/snapshot', '/scalar', '/scalar/standalone.js']) {
    const response = await fetch(`${url}${route}`);
    expect({ route, status: response.status }).toEqual({ route, status: 200 });
  }
  const snapshot = (await (await fetch(`${url}/engine/snapshot`)).json()) as Record<string, unknown>;
  expect(JSON.stringify(snapshot)).toContain('cache'); // the Redis dependency of both hosts
}

/** The configuration numbers the manifests must reflect, read straight from engine.json. */
function configured(directory: string) {
  const engine = readEngineConfiguration(directory) as { Engine: Record<string, any> };
  const seconds = (text: string) => Number(/^(\d+)s$/.exec(text)?.[1]);
  const sections = Object.values(engine.Engine.Observability.DependencyHealth) as Array<{
    RefreshIntervalSeconds: number;
    Dependencies: Array<{ TimeoutSeconds: number }>;
  }>;
  const S = seconds(engine.Engine.FailurePolicy.StartupReadinessDelay);
  const G = seconds(engine.Engine.FailurePolicy.ShutdownLivenessGracePeriod);
  const D = seconds(engine.Engine.Web.DrainTimeout);
  const T = Math.max(
    ...sections.flatMap((section) => section.Dependencies.map((entry) => entry.TimeoutSeconds)),
  );
  const R = Math.max(...sections.map((section) => section.RefreshIntervalSeconds));
  const H = seconds(engine.Engine.Shutdown.StoppingHooksTimeout);
  const J = seconds(engine.Engine.Shutdown.JobStopTimeout);
  const C = seconds(engine.Engine.Shutdown.StoreCloseTimeout);
  return { S, G, D, T, R, stop: Math.max(H + D + J + C, G) + T };
}

// The app-service ZIP is built and started for the web host only: the ZIP builder does not depend on the host's kind
// (the production set comes from the lockfile: app-service-zip.test.ts), and the web host's set is the
// larger one.
describe.each([
  ['web', () => web, { http: true, zip: true }],
  ['worker', () => worker, { http: false, zip: false }],
])('a generated %s host installed from tarballs', (_kind, directory, { http: hasHttpProbe, zip }) => {
  const environment = () => ({
    ...redisEnvironment(),
    ...(hasHttpProbe
      ? { Engine__Observability__DependencyHealth__Http__Dependencies__0__Endpoint: upstreamUrl }
      : {}),
  });

  it('starts, answers the adoption routes, and exits 0 on SIGTERM', async () => {
    if (!redisReachable) return;
    // The web host serves the Scalar bundle it carries: Scalar's own dependency tree is never installed.
    expect(existsSync(path.join(directory(), 'node_modules/@scalar/api-reference'))).toBe(false);
    const host = startHost(directory(), await freePort(), environment());
    try {
      const { S, T, R } = configured(directory());
      await expectAdoptionRoutes(host.url, S + 2 * T + R + 30, host.output);
    } finally {
      expect(await host.stop()).toBe(0);
    }
  });

  it("passes the README's test command and corekit-host check", async () => {
    if (!redisReachable) return;
    await npm(directory(), ['test'], cache, 180_000);
    const { stdout } = await npm(directory(), ['run', 'check'], cache, 60_000);
    expect(stdout).toContain('Artifacts: every file matches the configuration.');
  });

  it('has Kubernetes and container-app YAML whose probe timings follow engine.json', () => {
    if (!redisReachable) return;
    const { S, T, R, stop } = configured(directory());
    const { port } = readDeploySettings(directory());
    const yamlFiles = ['deploy/kubernetes', 'deploy/container-app'].flatMap((folder) =>
      readdirSync(path.join(directory(), folder)).map((file) => path.join(directory(), folder, file)),
    );
    expect(yamlFiles.length).toBe(4);
    const documents = yamlFiles.map((file) => parse(readFileSync(file, 'utf8')));
    const deployment = documents.find((document) => document.kind === 'Deployment');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.readinessProbe).toMatchObject({
      httpGet: { path: '/health/ready', port },
      initialDelaySeconds: S,
      periodSeconds: T,
      failureThreshold: 1,
    });
    expect(container.livenessProbe).toMatchObject({ httpGet: { path: '/health/live' }, periodSeconds: R });
    expect(
      container.startupProbe.periodSeconds * container.startupProbe.failureThreshold,
    ).toBeGreaterThanOrEqual(S + 2 * T + R);
    expect(container.lifecycle.preStop.exec.command).toEqual(['sleep', String(T + 1)]);
    expect(pod.terminationGracePeriodSeconds).toBe(T + 1 + stop);
    expect(container.startupProbe.httpGet.path).toBe('/health/startup');
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    expect(documents.map((document) => document.kind ?? document.type).sort()).toEqual(
      ['Deployment', 'Microsoft.App/containerApps', 'Namespace', 'Service'].sort(),
    );
    const app = documents.find((document) => document.type === 'Microsoft.App/containerApps');
    const probes = Object.fromEntries(
      app.properties.template.containers[0].probes.map((p: { type: string }) => [p.type, p]),
    );
    expect(probes.Readiness).toMatchObject({ initialDelaySeconds: S, periodSeconds: T, failureThreshold: 1 });
    expect(probes.Liveness).toMatchObject({ periodSeconds: R });
    expect(probes.Startup.failureThreshold).toBeLessThanOrEqual(10);
    expect(probes.Startup.periodSeconds * probes.Startup.failureThreshold).toBeGreaterThanOrEqual(
      S + 2 * T + R,
    );
    expect(app.properties.template.terminationGracePeriodSeconds).toBe(pod.terminationGracePeriodSeconds);
  });

  it('has a systemd unit that systemd-analyze verify accepts, stopping within the computed time', async () => {
    if (!redisReachable) return;
    const { name } = readDeploySettings(directory());
    const unit = path.join(directory(), `deploy/systemd/${name}.service`);
    const { stop } = configured(directory());
    expect(readFileSync(unit, 'utf8')).toContain(`\nTimeoutStopSec=${stop}\n`);
    const which = await run('which', ['systemd-analyze']).catch(() => null);
    if (!which) {
      if (process.env.CI === 'true')
        throw new Error('systemd-analyze is missing (apt-get install systemd); CI=true');
      console.warn('SKIPPING systemd-analyze verify: systemd-analyze is not installed');
      return;
    }
    const { stderr } = await run('systemd-analyze', ['verify', unit], { timeout: 60_000 });
    expect(stderr.split('\n').filter((line) => line.includes(path.basename(unit)))).toEqual([]);
  });

  if (zip)
    it('builds an app-service ZIP that starts from an empty folder', async () => {
      if (!redisReachable) return;
      await npm(directory(), ['run', 'zip'], cache, 180_000);
      const target = mkdtempSync(path.join(root, 'unzipped-'));
      new AdmZip(path.join(directory(), 'artifacts/app-service.zip')).extractAllTo(target, true);
      expect(readdirSync(path.join(target, 'node_modules'))).not.toContain('tsup'); // production dependencies only
      const host = startHost(target, await freePort(), environment());
      try {
        const { S, T, R } = configured(directory());
        const ready = await waitForStatus(`${host.url}/health/ready`, 200, S + 2 * T + R + 30);
        if (ready !== 200) throw new Error(`the unzipped host answered ${ready}; output:\n${host.output()}`);
      } finally {
        expect(await host.stop()).toBe(0);
      }
    });
});
