import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '@corekit/engine-core';
import { pollUntil } from '@corekit/testing/poll-until';
import { requireService } from '@corekit/testing/require-service';
import { agentsDemoTokens } from '../packs/agents-demo';
import { createSampleHost } from '../sample-host';
import {
  copyDataFolder,
  deleteRedisPrefix,
  dropPostgresTable,
  dumpRedisPrefix,
  loadPostgresTable,
  loadRedisPrefix,
  postgresUrl,
  redisUrl,
} from './store-fixtures';
import {
  readUpgradeFixtureSource,
  upgradeFixturesFolder,
  upgradeProviders,
  type UpgradeProvider,
} from './upgrade-fixtures';
import { hostAt, readUpgradeSurfaces, upgradeHostEnvironment, type HostRequest } from './upgrade-scenario';

// The upgrade a user makes: state the previous release of the packages wrote (src/upgrade/fixtures, written by
// scripts/write-upgrade-fixtures.ts from the commit in source.json) is loaded into a fresh namespace of each
// store (a folder, a PostgreSQL table, a Redis key prefix), the current sample host starts on it, and every
// surface answers what the previous release answered. A write after the upgrade replaces an old record with the
// current schema envelope. Under CI=true a missing PostgreSQL or Redis fails the file.

jest.setTimeout(120_000);

const source = readUpgradeFixtureSource();
const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;

interface LoadedState {
  readonly environment: Record<string, string>;
  readonly dataDirectory: string;
  /** The raw text of the agent runs store, to see the envelope a write leaves. */
  readonly agentRunsText: () => Promise<string>;
  readonly remove: () => Promise<void>;
}

/** Puts the fixture state of `provider` into a namespace of this test; answers how a host reaches it. */
async function loadState(provider: UpgradeProvider): Promise<LoadedState> {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), `corekit-upgrade-${provider}-`));
  const removeFolder = () => rmSync(dataDirectory, { recursive: true, force: true });
  if (provider === 'file') {
    await copyDataFolder(path.join(upgradeFixturesFolder, 'file'), dataDirectory);
    const runs = path.join(dataDirectory, 'stores', 'agent-tool-runs.json');
    return {
      environment: {},
      dataDirectory,
      agentRunsText: async () => readFileSync(runs, 'utf8'),
      remove: async () => removeFolder(),
    };
  }
  if (provider === 'postgresql') {
    if (!(await requireService('PostgreSQL', postgresUrl(), 'POSTGRES_URL')))
      throw new Error('PostgreSQL is needed');
    const table = `corekit_upgrade_${suffix}`;
    await loadPostgresTable(path.join(upgradeFixturesFolder, 'postgresql.sql'), table);
    return {
      environment: {
        Engine__Stores__Provider: 'PostgreSql',
        Engine__Stores__PostgreSql__ConnectionString: postgresUrl(),
        Engine__Stores__PostgreSql__TableName: table,
      },
      dataDirectory,
      agentRunsText: () => postgresRows(table, 'agent-tool-runs'),
      remove: async () => {
        await dropPostgresTable(table);
        removeFolder();
      },
    };
  }
  if (!(await requireService('Redis', redisUrl(), 'REDIS_URL'))) throw new Error('Redis is needed');
  const prefix = `corekit:upgrade:${suffix}:`;
  await loadRedisPrefix(path.join(upgradeFixturesFolder, 'redis.json'), prefix);
  const dumpFile = path.join(dataDirectory, 'redis-now.json');
  return {
    environment: {
      Engine__Stores__Provider: 'Redis',
      Engine__Stores__Redis__Url: redisUrl(),
      Engine__Stores__Redis__KeyPrefix: prefix,
    },
    dataDirectory,
    agentRunsText: async () => {
      await dumpRedisPrefix(`${prefix}{agent-tool-runs}`, dumpFile);
      return readFileSync(dumpFile, 'utf8');
    },
    remove: async () => {
      await deleteRedisPrefix(prefix);
      removeFolder();
    },
  };
}

async function postgresRows(table: string, store: string): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  return execFileSync(
    'psql',
    [
      '--dbname',
      postgresUrl(),
      '-At',
      '-c',
      `SELECT value FROM public."${table}" WHERE store_name = '${store}'`,
    ],
    {
      encoding: 'utf8',
    },
  );
}

describe.each(upgradeProviders)(
  `%s: the state of ${source.commit.slice(0, 12)} read by this release`,
  (provider) => {
    let state: LoadedState;
    let close: (() => Promise<void>) | undefined;
    let host: HostRequest;
    beforeAll(async () => {
      state = await loadState(provider);
      const sample = await createSampleHost({
        port: 0,
        handleSignals: false,
        dataDirectory: state.dataDirectory,
        environment: { ...upgradeHostEnvironment, ...state.environment },
        logger: createMemoryLogger(),
      });
      close = () => sample.host.close();
      const { port } = await sample.host.listen();
      host = hostAt(`http://127.0.0.1:${port}`);
    });
    afterAll(async () => {
      await close?.();
      await state?.remove();
    });

    it('every surface answers what the previous release answered', async () => {
      const expected = source.surfaces[provider];
      const read = await pollUntil(
        () => readUpgradeSurfaces(host),
        (answers) => JSON.stringify(answers) === JSON.stringify(expected),
        { timeoutMs: 15_000, intervalMs: 250 },
      );
      expect(read).toEqual(expected);
    });

    it('a decision on a run the previous release stored is written back in the current schema envelope', async () => {
      expect(await state.agentRunsText()).not.toContain('$schemaVersion');
      const decided = await host('/engine/agent-tool-runs/upgrade-run-refund/decision', {
        method: 'POST',
        token: agentsDemoTokens.approver,
        body: { decision: 'approve', reason: 'after the upgrade' },
      });
      expect(decided).toMatchObject({
        status: 200,
        body: { outcome: 'succeeded', output: { refunded: 25 } },
      });
      const run = await host('/engine/agent-tool-runs/upgrade-run-refund');
      expect(run.body).toMatchObject({ latestOutcome: 'succeeded', approval: { state: 'approved' } });
      expect(await state.agentRunsText()).toContain('$schemaVersion');
    });
  },
);

describe('file: state of a later release', () => {
  it("fails the sample's start with STORE_SCHEMA_TOO_NEW, naming the store, the key and both versions", async () => {
    const state = await loadState('file');
    try {
      // A later release stored this invitation at schema version 2 (the README shows the same with jq).
      const file = path.join(state.dataDirectory, 'stores', 'tenant-governance-invitations.json');
      const document = JSON.parse(readFileSync(file, 'utf8'));
      const [record] = document.records;
      record.value = { $schemaVersion: 2, value: record.value };
      writeFileSync(file, JSON.stringify(document));
      const sample = await createSampleHost({
        port: 0,
        handleSignals: false,
        dataDirectory: state.dataDirectory,
        environment: upgradeHostEnvironment,
        logger: createMemoryLogger(),
      });
      try {
        // A host that does not own the process keeps listening and shows the failed start (main.ts exits 1).
        const { port } = await sample.host.listen();
        const failed = hostAt(`http://127.0.0.1:${port}`);
        expect((await failed('/health/live')).status).toBe(503);
        const { body } = await failed('/engine/status');
        expect(body).toMatchObject({
          state: 'Failed',
          lastFailure: { phase: 'pack-starting', code: 'STORE_SCHEMA_TOO_NEW' },
        });
        expect(body.lastFailure.message).toContain(
          `Store "tenant-governance-invitations" holds a record of schema version 2 (key "${record.key}"), but the installed package reads schema versions up to 1`,
        );
      } finally {
        await sample.host.close();
      }
    } finally {
      await state.remove();
    }
  });
});
