import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReplicas, type ReplicaSet, type ReplicaStoreProvider } from '@corekit/testing/replica-harness';
import { sampleRoot } from '../sample-host';
import { replicaChecks, replicaEnvironment } from './index';

// The replica table: every pack's checks (src/replicas/*-replica-checks.ts) against sample hosts started as
// child processes (src/main.ts, as `pnpm demo`) on ONE shared store, in its own table or key prefix. One set
// serves every row: 2 replicas first, then two more are added and the rows run again with 4 (the change-feed rows
// kill one and restart it). One test file per provider (replicas-postgresql.test.ts, replicas-redis.test.ts), so
// the two tables run side by side. Under CI=true a missing server fails the file.

const counts = [2, 4] as const;
const lastCheck = replicaChecks[replicaChecks.length - 1];

/** The replica table on one provider: a describe block for the calling test file. */
export function describeReplicaTable(provider: ReplicaStoreProvider): void {
  describe(`${provider}: sample hosts as replicas on one shared store`, () => {
    let set: ReplicaSet;
    const folder = mkdtempSync(path.join(os.tmpdir(), `replicas-${provider}-`));
    beforeAll(async () => {
      set = await startReplicas({
        count: 2,
        provider,
        entry: { cwd: sampleRoot, script: 'src/main.ts', tsconfig: 'tsconfig.run.json' },
        readyText: 'Core sample host on',
        env: (index) => ({
          NODE_ENV: 'development',
          COREKIT_DEBUG: '',
          Engine__Grpc__Port: '0',
          Engine__Web__BindAddress: '127.0.0.1',
          SAMPLE_DATA_DIRECTORY: path.join(folder, `replica-${index}`),
          ...replicaEnvironment,
        }),
      });
    });
    afterAll(async () => {
      await set?.stopAll();
      rmSync(folder, { recursive: true, force: true });
    });

    describe.each(counts)('%i replicas', (count) => {
      beforeAll(async () => {
        while (set.replicas.length < count) await set.add();
      });
      it.each(replicaChecks.map((check) => [check.pack, check.name, check] as const))(
        '%s: %s',
        async (_pack, _name, check) => {
          let sequence = 0;
          await check.run(set, {
            provider,
            count,
            unique: (name) => `${provider}-${count}-${name}-${(sequence += 1)}`,
            last: count === counts[counts.length - 1] && check === lastCheck,
          });
        },
      );
    });
  });
}
