import { randomBytes } from 'node:crypto';
import type { StoreProvider, TechnologySurface } from '@corekit/abstractions';
import { PostgresStoreProvider } from '@corekit/store-postgres';
import { RedisStoreProvider } from '@corekit/store-redis';
import { addMultiTenancy } from '@corekit/tenancy';
import { killFeedConnectionsNamed } from '@corekit/testing/replica-feed';
import { requireService } from '@corekit/testing/require-service';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addTenantGovernance, governanceStoreNames } from './add-tenant-governance';
import { addTenantGovernanceDelivery, deliveryStoreNames } from './add-tenant-governance-delivery';
import type { DeliveryOptionsInput } from './delivery-options';
import type { InvitationSender } from './delivery-seams';
import type { RetryQueue } from './retry-queue';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = `${process.pid}_${randomBytes(3).toString('hex')}`;
let namespaceCount = 0;

/** One shared store provider kind: how to reach its server, and a fresh namespace (table, key prefix) per test. */
export interface SharedProviderKind {
  readonly kind: 'postgresql' | 'redis';
  /** True when the server answers; under CI=true a missing server fails the test instead. */
  available(): Promise<boolean>;
  /**
   * A namespace of its own: `open()` gives each replica its own connections on it; `environment` names it to
   * a child process (`test-fixtures/retry-claim-holder.ts`); `killFeed()` has the server end the change-feed
   * connection of every replica on it (answers how many); `drop()` removes its records.
   */
  namespace(): {
    open(): StoreProvider;
    readonly environment: Record<string, string>;
    killFeed(): Promise<number>;
    drop(): Promise<void>;
  };
}

export const sharedProviderKinds: readonly SharedProviderKind[] = [
  {
    kind: 'postgresql',
    available: () => requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL'),
    namespace() {
      const tableName = `gov_replicas_${run}_${++namespaceCount}`;
      const open = () => new PostgresStoreProvider({ connectionString: postgresUrl, tableName });
      return {
        open,
        environment: { PROVIDER: 'postgresql', POSTGRES_URL: postgresUrl, TABLE_NAME: tableName },
        killFeed: () => killFeedConnectionsNamed('postgresql', `corekit-store-feed public.${tableName}`),
        async drop() {
          const provider = open();
          await provider.dropTable();
          await provider.close();
        },
      };
    },
  },
  {
    kind: 'redis',
    available: () => requireService('Redis', redisUrl.replace(/^redis:/, 'http:'), 'REDIS_URL'),
    namespace() {
      const keyPrefix = `gov-replicas:${run}:${++namespaceCount}:`;
      const open = () => new RedisStoreProvider({ url: redisUrl, keyPrefix });
      return {
        open,
        environment: { PROVIDER: 'redis', REDIS_URL: redisUrl, KEY_PREFIX: keyPrefix },
        killFeed: () => killFeedConnectionsNamed('redis', `corekit-store-feed:${keyPrefix}`),
        async drop() {
          const provider = open();
          await provider.deleteStores([
            ...Object.values(governanceStoreNames),
            ...Object.values(deliveryStoreNames),
          ]);
          await provider.close();
        },
      };
    },
  },
];

/**
 * A clock every replica of a test reads, so a lease can end without waiting. Starts at `start` (a fixed
 * time by default; the real time when a child process with the system clock takes part).
 */
export function sharedClock(start = new Date('2030-01-01T00:00:00.000Z')) {
  let now = start;
  return {
    now: () => now,
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
    set(time: Date) {
      now = time;
    },
  };
}

/**
 * One replica: an engine with tenancy (acme, globex), governance and delivery with the retry queue, on its own
 * connections to the shared store provider, reading the shared clock. The surfaces' copies follow the store's
 * change feed, and read it whole every `refreshSeconds` (default 1) while the feed is down. Tests only.
 */
export async function startReplica(
  provider: StoreProvider,
  clock: () => Date,
  senders: readonly InvitationSender[],
  delivery: DeliveryOptionsInput = {},
  refreshSeconds = 1,
) {
  const { builder, logger } = createTestEngineBuilder();
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }, { Id: 'globex' }] });
  const governance = addTenantGovernance(
    builder,
    { InvitationExpirySweepIntervalSeconds: 0, SharedStateRefreshIntervalSeconds: refreshSeconds },
    { now: clock },
  );
  const parts = addTenantGovernanceDelivery(
    builder,
    {
      EnableInvitationDeliveryRetryQueue: true,
      InvitationDeliveryRetryDelaySeconds: 0,
      InvitationDeliveryRetryMaxAttempts: 5,
      ...delivery,
    },
    { now: clock },
  );
  for (const sender of senders) parts.senders.add(sender);
  builder.useStoreProvider(provider);
  const engine = builder.build();
  await engine.start();
  const surface = (id: string): Record<string, unknown> =>
    engine.technologySurfaces().find((item: TechnologySurface) => item.id === id)!.metadata;
  return {
    engine,
    governance,
    ...parts,
    logger,
    surface,
    /** The retry queue (tests only: claims are checked on it directly). */
    queue: parts.retryRunner['queue'] as RetryQueue,
  };
}

export type Replica = Awaited<ReturnType<typeof startReplica>>;

/** What the tests of `describeOnSharedStores` get, for the provider of their run. */
export interface SharedStoreRun {
  readonly kind: SharedProviderKind['kind'];
  /** False when the server is missing outside CI: each test then returns at once (under CI=true it fails). */
  readonly available: boolean;
  /** The test's own namespace (table or key prefix), dropped after it. */
  readonly namespace: ReturnType<SharedProviderKind['namespace']>;
  /** Starts one more replica on the namespace (stopped after the test); same arguments as `startReplica`. */
  start(
    ...args: Parameters<typeof startReplica> extends [unknown, ...infer Rest] ? Rest : never
  ): Promise<Replica>;
}

/**
 * Runs `body`'s tests once on PostgreSQL and once on Redis (`%s` in `title` names the provider), each test on a
 * namespace of its own, every replica it started stopped and the namespace dropped after it.
 */
export function describeOnSharedStores(title: string, body: (run: SharedStoreRun) => void): void {
  describe.each(sharedProviderKinds.map((kind) => [kind.kind, kind] as const))(
    title,
    (_name, providerKind: SharedProviderKind) => {
      let namespace: ReturnType<SharedProviderKind['namespace']>;
      let replicas: Replica[] = [];
      let available = false;

      beforeAll(async () => {
        available = await providerKind.available();
      });

      beforeEach(() => {
        namespace = providerKind.namespace();
        replicas = [];
      });

      afterEach(async () => {
        for (const replica of replicas) await replica.engine.stop();
        if (available) await namespace.drop();
      });

      body({
        kind: providerKind.kind,
        get available() {
          return available;
        },
        get namespace() {
          return namespace;
        },
        async start(...args) {
          const replica = await startReplica(namespace.open(), ...args);
          replicas.push(replica);
          return replica;
        },
      });
    },
  );
}
