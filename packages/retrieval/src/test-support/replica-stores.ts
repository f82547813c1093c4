import { randomBytes } from 'node:crypto';
import type { EngineBuilder, StoreProvider } from '@corekit/abstractions';
import { addPostgresStores, PostgresStoreProvider } from '@corekit/store-postgres';
import { addRedisStores, RedisStoreProvider } from '@corekit/store-redis';
import Redis from 'ioredis';
import pg from 'pg';

/** One shared store provider the replica tests run on, with a table or key prefix per test. */
export interface ReplicaStoreTarget {
  readonly name: 'PostgreSQL' | 'Redis';
  readonly url: string;
  /** A fresh table or key prefix: every replica of one test installs the same one. */
  isolate(): ReplicaStores;
  /** Drops every table or key the isolations of this file made. */
  cleanUp(): Promise<void>;
}

/** The stores of one test: what each replica installs, and a provider for the test's own reads and writes. */
export interface ReplicaStores {
  install(builder: EngineBuilder): void;
  /** A provider on the same table or prefix outside any engine (a replica that died holding a claim). */
  openProvider(): StoreProvider & { close(): Promise<void> };
}

const suffix = () => randomBytes(5).toString('hex');

export function postgresReplicaTarget(url: string): ReplicaStoreTarget {
  const tables = new Set<string>();
  return {
    name: 'PostgreSQL',
    url,
    isolate() {
      const table = `retrieval_replicas_${suffix()}`;
      tables.add(table);
      return {
        install: (builder) =>
          addPostgresStores(builder, { ConnectionString: url, TableName: table, PoolMax: 2 }),
        openProvider: () =>
          new PostgresStoreProvider({ connectionString: url, tableName: table, poolMax: 2 }),
      };
    },
    async cleanUp() {
      if (tables.size === 0) return;
      const pool = new pg.Pool({ connectionString: url });
      await pool.query(`DROP TABLE IF EXISTS ${[...tables].join(', ')}`).catch(() => undefined);
      await pool.end();
    },
  };
}

export function redisReplicaTarget(url: string): ReplicaStoreTarget {
  const prefixes = new Set<string>();
  return {
    name: 'Redis',
    url,
    isolate() {
      const prefix = `retrieval-replicas:${suffix()}:`;
      prefixes.add(prefix);
      return {
        install: (builder) => addRedisStores(builder, { Url: url, KeyPrefix: prefix }),
        openProvider: () => new RedisStoreProvider({ url, keyPrefix: prefix }),
      };
    },
    async cleanUp() {
      const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await client.connect();
        for (const prefix of prefixes) {
          let cursor = '0';
          do {
            const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
            if (keys.length > 0) await client.del(...keys);
            cursor = next;
          } while (cursor !== '0');
        }
      } finally {
        client.disconnect();
      }
    },
  };
}
