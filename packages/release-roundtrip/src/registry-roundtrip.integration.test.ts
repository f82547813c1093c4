// The registry round trip (issue 53, docs/releasing.md): on a copy of the tree, `changeset version` and
// `changeset publish` to a local registry (Verdaccio, no uplinks); then a fresh consumer project pins the
// published versions and installs them from that registry, once with npm and once with pnpm, type-checks a
// program against them (strict, NodeNext, as an ES module and a CommonJS consumer) and runs it until
// /health/ready answers 200 against the local PostgreSQL (a database of its own) and Redis.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '@corekit/testing/poll-until';
import { requireService } from '@corekit/testing/require-service';
import {
  publishWorkspacePackages,
  startLocalRegistry,
  type LocalRegistry,
  type PublishedPackages,
} from '@corekit/testing/local-registry';
import { runCommand } from '@corekit/testing/run-command';
import {
  compile,
  consumerPackages,
  install,
  npmCache,
  startConsumer,
  writeConsumerProject,
  type InstallFolders,
  type PackageManager,
} from './consumer-project';
import { createDatabase, dropDatabase } from './test-support/database';

// Generous bounds: on a loaded machine building, versioning and publishing seventeen packages takes minutes.
jest.setTimeout(20 * 60_000);
const publishTimeout = 45 * 60_000;

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const operatorToken = randomBytes(16).toString('hex');
/** What each step took, printed after the file (the lead budgets CI time from it). */
const durations: Record<string, number> = {};

let servicesUp = false;
let root = '';
let registry: LocalRegistry | undefined;
let published: PublishedPackages;
let databaseUrl = '';
let upstream: http.Server | undefined;
let upstreamUrl = '';
let folders: InstallFolders;

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    durations[step] = Date.now() - started;
  }
}

beforeAll(async () => {
  const started = Date.now();
  servicesUp =
    (await requireService('PostgreSQL', postgresUrl.replace(/^postgres(ql)?:/, 'http:'), 'POSTGRES_URL')) &&
    (await requireService('Redis', redisUrl.replace(/^redis:/, 'http:'), 'REDIS_URL'));
  if (!servicesUp) return;
  root = mkdtempSync(path.join(os.tmpdir(), 'corekit-roundtrip-'));
  folders = {
    npmCache: npmCache(),
    pnpmStore: path.join(root, 'pnpm-store'),
    pnpmCache: path.join(root, 'pnpm-cache'),
  };
  databaseUrl = await createDatabase(postgresUrl, `corekit_roundtrip_${randomBytes(5).toString('hex')}`);
  upstream = http.createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/health`;
  registry = await timed('start the registry', () => startLocalRegistry());
  published = await publishWorkspacePackages(registry, consumerPackages);
  durations['build (turbo, or a dist/ check inside turbo)'] = published.durations.buildMs;
  durations['changeset version on the copy'] = published.durations.versionMs;
  durations['changeset publish'] = published.durations.publishMs;
  durations['before the consumers'] = Date.now() - started;
}, publishTimeout);

afterAll(async () => {
  await registry?.close();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  if (databaseUrl) await dropDatabase(postgresUrl, new URL(databaseUrl).pathname.slice(1));
  if (root) rmSync(root, { recursive: true, force: true });
  const lines = Object.entries(durations).map(
    ([step, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${step}`,
  );
  if (lines.length > 0) console.log(`registry round trip, durations:\n${lines.join('\n')}`);
});

it('publishes the consumer set at the versions changeset version gave it, the fixed group on one version', () => {
  if (!servicesUp) return;
  const fixed = [
    '@corekit/abstractions',
    '@corekit/engine-core',
    '@corekit/web-host',
    '@corekit/worker-host',
  ];
  expect(new Set(fixed.map((name) => published.versions[name])).size).toBe(1);
  const tree = JSON.parse(readFileSync(path.resolve(__dirname, '../../engine-core/package.json'), 'utf8'));
  expect(published.versions['@corekit/engine-core']).not.toBe(tree.version);
  for (const name of consumerPackages) expect(published.versions[name]).toMatch(/^0\.\d+\.\d+$/);
});

describe.each<PackageManager>(['npm', 'pnpm'])('a consumer installing with %s', (manager) => {
  let directory = '';

  beforeAll(async () => {
    if (!servicesUp) return;
    directory = path.join(root, `consumer-${manager}`);
    writeConsumerProject(directory, registry!, published.versions);
    await timed(`${manager} install`, () => install(directory, manager, folders));
  });

  it('gets the pinned versions, and the peers at the versions published with them', () => {
    if (!servicesUp) return;
    for (const name of consumerPackages)
      expect({ name, version: installedVersion(directory, name) }).toEqual({
        name,
        version: published.versions[name],
      });
    // @corekit/abstractions is a peer of every pack: the package manager resolved its window from the registry.
    expect(peerVersion(directory, '@corekit/probe-postgres', '@corekit/abstractions')).toBe(
      published.versions['@corekit/abstractions'],
    );
  });

  it('type-checks the program (strict, NodeNext, ES module and CommonJS) and loads the packages with require()', async () => {
    if (!servicesUp) return;
    await timed(`${manager}: tsc`, () => compile(directory));
    const { stdout } = await runCommand(process.execPath, ['dist/require-check.cjs'], { cwd: directory });
    expect(stdout).toContain('require() loaded @corekit/engine-core');
  });

  it('runs to ready against PostgreSQL and Redis, lists its packs in the manifest, and stops with exit code 0', async () => {
    if (!servicesUp) return;
    expect(existsSync(path.join(directory, 'dist/main.js'))).toBe(true);
    const started = Date.now();
    const consumer = startConsumer(directory, {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      UPSTREAM_URL: upstreamUrl,
      SENDGRID_WEBHOOK_PUBLIC_KEY: webhookPublicKey(),
      OPERATOR_TOKEN: operatorToken,
      SENDGRID_API_KEY: 'SG.roundtrip-key',
      // Nothing is sent here; were something sent, it would go to the local upstream, never to SendGrid.
      Engine__MultiTenancy__Governance__SendGridInvitationDelivery__BaseUrl: upstreamUrl.replace(
        '/health',
        '',
      ),
    });
    try {
      const url = await consumer.listening;
      const ready = await pollUntil(
        () =>
          fetch(`${url}/health/ready`).then(
            (response) => response.status,
            () => 0,
          ),
        (status) => status === 200,
        { timeoutMs: 120_000, intervalMs: 250 },
      );
      if (ready !== 200)
        throw new Error(`/health/ready answered ${ready}; consumer output:\n${consumer.output()}`);
      durations[`${manager}: start to ready`] = Date.now() - started;
      const manifest = (await (
        await fetch(`${url}/engine/manifest`, { headers: { authorization: `Bearer ${operatorToken}` } })
      ).json()) as {
        engine: { name: string };
        packs: Array<{ packageName: string; specificationVersion: number }>;
      };
      const declared = manifest.packs.map((pack) => pack.packageName);
      for (const name of ['@corekit/eventing', '@corekit/outbox-postgres', '@corekit/tenant-governance'])
        expect(declared).toContain(name);
      expect(manifest.packs.every((pack) => pack.specificationVersion === 1)).toBe(true);
    } finally {
      expect(await consumer.stop()).toBe(0);
    }
  });
});

/** The version of `name` the consumer's node_modules holds. */
function installedVersion(directory: string, name: string): string {
  return JSON.parse(readFileSync(path.join(directory, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** The version of `peer` that `name` resolves (its sibling where the package manager placed it). */
function peerVersion(directory: string, name: string, peer: string): string {
  const real = realpathSync(path.join(directory, 'node_modules', name));
  const sibling = path.join(real, '..', '..', peer, 'package.json');
  return JSON.parse(readFileSync(sibling, 'utf8')).version;
}

let publicKey: string | undefined;
/** A P-256 public key (base64 DER SPKI), as SendGrid's signed event webhook settings show it. */
function webhookPublicKey(): string {
  publicKey ??= generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .publicKey.export({ format: 'der', type: 'spki' })
    .toString('base64');
  return publicKey;
}
