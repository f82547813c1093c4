import { randomBytes } from 'node:crypto';
import type { EngineBuilder, StoreProvider } from '@corekit/abstractions';
import { dropStoreNamespace, type StoreNamespace } from './replica-harness';
import { requireService } from './require-service';

/*
 * Replicas in one test process on one shared store: each test gets a fresh PostgreSQL table or Redis key
 * prefix that every replica (engine) of that test installs. The store packages depend on this kit for their
 * own tests, so the test passes the store package in (`import * as storePostgres from
 * '@corekit/store-postgres'`) rather than this kit importing it.
 */

/** A provider a test opens outside any engine (a replica that died holding a claim); closed by the test. */
export type ClosableReplicaProvider = StoreProvider & { close(): Promise<void> };

/** What `postgresReplicaTarget` uses of `@corekit/store-postgres`. */
export interface PostgresStoreKit {
  addPostgresStores(
    builder: EngineBuilder,
    options: { ConnectionString: string; TableName: string; PoolMax: number },
  ): unknown;
  readonly PostgresStoreProvider: new (options: {
    connectionString: string;
    tableName: string;
    poolMax: number;
  }) => ClosableReplicaProvider;
}

/** What `redisReplicaTarget` uses of `@corekit/store-redis`. */
export interface RedisStoreKit {
  addRedisStores(builder: EngineBuilder, options: { Url: string; KeyPrefix: string }): unknown;
  readonly RedisStoreProvider: new (options: { url: string; keyPrefix: string }) => ClosableReplicaProvider;
}

/** One shared store provider the replica tests run on, with a table or key prefix per test. */
export interface ReplicaStoreTarget {
  readonly name: 'PostgreSQL' | 'Redis';
  readonly url: string;
  /** A fresh table or key prefix: every replica of one test installs the same one. */
  isolate(): ReplicaStores;
  /** Drops every table or key the isolations of this target made (best effort). */
  cleanUp(): Promise<void>;
}

/** The stores of one test: what each replica installs, and a provider for the test's own reads and writes. */
export interface ReplicaStores {
  install(builder: EngineBuilder): void;
  /** A provider on the same table or prefix outside any engine. */
  openProvider(): ClosableReplicaProvider;
  /**
   * The `Engine__Stores__*` variables that put an engine in a child process on the same table or prefix (its
   * builder reads them from its environment: `storeEnvironmentOf` of the replica harness, for this isolation).
   */
  readonly environment: Readonly<Record<string, string>>;
}

/** Which test names the tables or prefixes (`eventing` → `eventing_replicas_<random>`). */
export interface ReplicaTargetOptions {
  readonly url: string;
  readonly label: string;
}

const suffix = () => randomBytes(5).toString('hex');

function target(
  name: ReplicaStoreTarget['name'],
  url: string,
  isolate: () => { namespace: StoreNamespace; stores: ReplicaStores },
): ReplicaStoreTarget {
  const made: StoreNamespace[] = [];
  return {
    name,
    url,
    isolate() {
      const { namespace, stores } = isolate();
      made.push(namespace);
      return stores;
    },
    async cleanUp() {
      for (const namespace of made.splice(0)) await dropStoreNamespace(namespace, url);
    },
  };
}

/** Replicas on PostgreSQL at `url`: one table `<label>_replicas_<random>` per isolation. */
export function postgresReplicaTarget(
  kit: PostgresStoreKit,
  options: ReplicaTargetOptions,
): ReplicaStoreTarget {
  const { url, label } = options;
  return target('PostgreSQL', url, () => {
    const tableName = `${label}_replicas_${suffix()}`;
    return {
      namespace: { provider: 'postgresql', tableName },
      stores: {
        install: (builder) =>
          kit.addPostgresStores(builder, { ConnectionString: url, TableName: tableName, PoolMax: 2 }),
        openProvider: () => new kit.PostgresStoreProvider({ connectionString: url, tableName, poolMax: 2 }),
        environment: {
          Engine__Stores__Provider: 'PostgreSql',
          Engine__Stores__PostgreSql__ConnectionString: url,
          Engine__Stores__PostgreSql__TableName: tableName,
        },
      },
    };
  });
}

/** Replicas on Redis at `url`: one key prefix `<label>-replicas:<random>:` per isolation. */
export function redisReplicaTarget(kit: RedisStoreKit, options: ReplicaTargetOptions): ReplicaStoreTarget {
  const { url, label } = options;
  return target('Redis', url, () => {
    const keyPrefix = `${label}-replicas:${suffix()}:`;
    return {
      namespace: { provider: 'redis', keyPrefix },
      stores: {
        install: (builder) => kit.addRedisStores(builder, { Url: url, KeyPrefix: keyPrefix }),
        openProvider: () => new kit.RedisStoreProvider({ url, keyPrefix }),
        environment: {
          Engine__Stores__Provider: 'Redis',
          Engine__Stores__Redis__Url: url,
          Engine__Stores__Redis__KeyPrefix: keyPrefix,
        },
      },
    };
  });
}

/** The replica targets of one test file on the machine's PostgreSQL and Redis, and the addresses used. */
export interface SharedReplicaTargets {
  readonly postgresUrl: string;
  readonly redisUrl: string;
  /** PostgreSQL first, then Redis. */
  readonly targets: readonly ReplicaStoreTarget[];
}

/**
 * Replica targets on both shared providers for one test file (`POSTGRES_URL`, `REDIS_URL`, else the loopback
 * servers), labelled `label`. Call it at the top level of the file: it checks both servers before the file's
 * tests (under `CI=true` a missing one fails them) and drops every namespace the file made after them.
 */
export function sharedReplicaTargets(
  kits: { readonly postgres: PostgresStoreKit; readonly redis: RedisStoreKit },
  label: string,
): SharedReplicaTargets {
  const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const targets = [
    postgresReplicaTarget(kits.postgres, { url: postgresUrl, label }),
    redisReplicaTarget(kits.redis, { url: redisUrl, label }),
  ];
  beforeAll(async () => {
    await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
    await requireService('Redis', redisUrl, 'REDIS_URL');
  });
  afterAll(async () => {
    for (const target of targets) await target.cleanUp();
  });
  return { postgresUrl, redisUrl, targets };
}
