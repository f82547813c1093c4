// The upgrade test from a registry (issue 53, docs/releasing.md "The upgrade tests"): the previous release's
// tarballs (previous-release/, packed at the commit of its release.json) are published to a local registry
// (Verdaccio, no uplinks); a consumer project installs them pinned with npm and compiles the upgrade writer
// (upgrade-writer/: the stateful part of that release's sample host). On the File store, PostgreSQL and Redis,
// each in a namespace of its own (a folder, a table, a key prefix), the writer writes the scenario's state
// through its routes, stops, starts again and records what its surfaces answer; then the current tree's sample
// host (examples/web-host from source, as `pnpm start` runs it) starts on that state and must answer the same on
// every surface, and write a record it decides on back in the current schema envelope.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTsxProcess, type FixtureProcess } from '@corekit/testing/child-process';
import { startLocalRegistry, type LocalRegistry } from '@corekit/testing/local-registry';
import { pollUntil } from '@corekit/testing/poll-until';
import { requireService } from '@corekit/testing/require-service';
import { runCommand } from '@corekit/testing/run-command';
// The scenario and its surfaces are the sample host's (the fixture-based upgrade test reads the same ones).
import { agentsDemoTokens } from '../../../examples/web-host/src/packs/agents-demo';
import {
  hostAt,
  readUpgradeSurfaces,
  upgradeHostEnvironment,
  upgradeOperatorToken,
  writeUpgradeState,
  type HostRequest,
} from '../../../examples/web-host/src/upgrade/upgrade-scenario';
import { compile, install, npmCache, startConsumer, workspaceRoot } from './consumer-project';
import { publishPreviousRelease, readPreviousRelease, upgradeWriterPackages } from './previous-release';
import {
  createUpgradeNamespace,
  upgradeProviders,
  type UpgradeNamespace,
  type UpgradeProvider,
} from './test-support/upgrade-namespaces';
import { writeUpgradeWriterProject } from './upgrade-writer-project';

jest.setTimeout(10 * 60_000);

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const release = readPreviousRelease();
/** What each step took, printed after the file. */
const durations: Record<string, number> = {};

let servicesUp = false;
let root = '';
let registry: LocalRegistry | undefined;
let versions: Record<string, string> = {};
let writerDirectory = '';

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    durations[step] = (durations[step] ?? 0) + Date.now() - started;
  }
}

beforeAll(async () => {
  const started = Date.now();
  servicesUp =
    (await requireService('PostgreSQL', postgresUrl.replace(/^postgres(ql)?:/, 'http:'), 'POSTGRES_URL')) &&
    (await requireService('Redis', redisUrl.replace(/^redis:/, 'http:'), 'REDIS_URL'));
  if (!servicesUp) return;
  root = mkdtempSync(path.join(os.tmpdir(), 'corekit-registry-upgrade-'));
  registry = await timed('start the registry', () => startLocalRegistry());
  versions = await timed('publish the previous release', () => publishPreviousRelease(registry!, release));
  writerDirectory = path.join(root, 'upgrade-writer');
  writeUpgradeWriterProject(writerDirectory, registry, versions);
  const folders = { npmCache: npmCache(), pnpmStore: '', pnpmCache: '' };
  await timed('npm install (the writer)', () => install(writerDirectory, 'npm', folders));
  await timed('tsc (the writer)', () => compile(writerDirectory));
  // The current sample host serves the console: its browser assets, as `pnpm start` builds them when missing.
  await timed('console assets (if missing)', () =>
    runCommand(process.execPath, ['packages/console/scripts/build-ui.mjs', '--if-missing'], {
      cwd: workspaceRoot,
    }),
  );
  durations['before the providers'] = Date.now() - started;
}, 30 * 60_000);

afterAll(async () => {
  await registry?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  const lines = Object.entries(durations).map(
    ([step, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${step}`,
  );
  if (lines.length > 0) console.log(`upgrade from the registry, durations:\n${lines.join('\n')}`);
});

it('installs the previous release pinned from the registry, not the versions of this tree', () => {
  if (!servicesUp) return;
  for (const name of upgradeWriterPackages) {
    const installed = JSON.parse(
      readFileSync(path.join(writerDirectory, 'node_modules', name, 'package.json'), 'utf8'),
    );
    expect({ name, version: installed.version }).toEqual({ name, version: versions[name] });
  }
  // The tarballs are the release's own bytes: what npm installed is what was packed at that commit.
  const lock = JSON.parse(readFileSync(path.join(writerDirectory, 'package-lock.json'), 'utf8'));
  for (const entry of release.packages)
    expect(lock.packages[`node_modules/${entry.name}`].integrity).toBe(`sha512-${entry.sha512}`);
});

/** Runs the writer on `namespace` while `use` talks to it, then stops it (SIGTERM: exit code 0). */
async function withWriter<T>(
  namespace: UpgradeNamespace,
  use: (host: HostRequest) => Promise<T>,
): Promise<T> {
  const writer = startConsumer(
    writerDirectory,
    {
      ...namespace.environment,
      NODE_ENV: 'development',
      SAMPLE_OPERATOR_TOKEN: upgradeOperatorToken,
      Engine__Web__BindAddress: '127.0.0.1',
    },
    'upgrade writer listening on',
  );
  try {
    const url = await writer.listening;
    return await use(hostAt(url.replace('//localhost:', '//127.0.0.1:')));
  } catch (error) {
    throw new Error(`${(error as Error).message}\nwriter output:\n${writer.output()}`);
  } finally {
    expect(await writer.stop()).toBe(0);
  }
}

/** The current tree's sample host on `namespace`, from source through tsx (as `pnpm start` runs it). */
async function startCurrentHost(
  namespace: UpgradeNamespace,
): Promise<{ process: FixtureProcess; host: HostRequest }> {
  const current = startTsxProcess({
    cwd: path.join(workspaceRoot, 'examples/web-host'),
    entry: 'src/main.ts',
    tsconfig: 'tsconfig.run.json',
    environment: { PORT: '0', ...upgradeHostEnvironment, ...namespace.environment },
  });
  const line = await current.waitForLine('Core sample host on', 300_000);
  const url = /https?:\/\/\S+/.exec(line)![0].replace('//localhost:', '//127.0.0.1:');
  return { process: current, host: hostAt(url) };
}

describe.each<UpgradeProvider>([...upgradeProviders])(
  `%s: state written by the previous release (${release.commit.slice(0, 12)}, installed from the registry)`,
  (provider) => {
    let namespace: UpgradeNamespace | undefined;
    let previousAnswers: Record<string, unknown> = {};
    let current: { process: FixtureProcess; host: HostRequest } | undefined;

    beforeAll(async () => {
      if (!servicesUp) return;
      namespace = createUpgradeNamespace(provider, postgresUrl, redisUrl);
      await timed(`${provider}: the previous release writes`, () =>
        withWriter(namespace!, writeUpgradeState),
      );
      // What survives a restart of the previous release is what the current one must show.
      previousAnswers = await timed(`${provider}: the previous release restarts and reads`, () =>
        withWriter(namespace!, readUpgradeSurfaces),
      );
      current = await timed(`${provider}: the current sample host starts`, () =>
        startCurrentHost(namespace!),
      );
    });

    afterAll(async () => {
      if (current) {
        current.process.child.kill('SIGTERM');
        await current.process.exited;
      }
      await namespace?.remove();
    });

    it('every surface answers what the previous release answered', async () => {
      if (!servicesUp) return;
      expect(Object.keys(previousAnswers)).toHaveLength(6);
      const read = await timed(`${provider}: the current release reads`, () =>
        pollUntil(
          () => readUpgradeSurfaces(current!.host),
          (answers) => JSON.stringify(answers) === JSON.stringify(previousAnswers),
          { timeoutMs: 15_000, intervalMs: 250 },
        ),
      );
      expect(read).toEqual(previousAnswers);
    });

    it('a decision on a run the previous release stored is written back in the current schema envelope', async () => {
      if (!servicesUp) return;
      expect(await namespace!.storeText('agent-tool-runs')).toContain('upgrade-run-refund');
      expect(await namespace!.storeText('agent-tool-runs')).not.toContain('$schemaVersion');
      const decided = await current!.host('/engine/agent-tool-runs/upgrade-run-refund/decision', {
        method: 'POST',
        token: agentsDemoTokens.approver,
        body: { decision: 'approve', reason: 'after the upgrade' },
      });
      expect(decided).toMatchObject({
        status: 200,
        body: { outcome: 'succeeded', output: { refunded: 25 } },
      });
      const run = await current!.host('/engine/agent-tool-runs/upgrade-run-refund');
      expect(run.body).toMatchObject({ latestOutcome: 'succeeded', approval: { state: 'approved' } });
      expect(await namespace!.storeText('agent-tool-runs')).toContain('$schemaVersion');
    });
  },
);
