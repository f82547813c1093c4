import type { PackLifecycleEnvironment } from '@corekit/testing/pack-lifecycle-conformance';
import { addPostgresStores } from '@corekit/store-postgres';
import { addRedisStores } from '@corekit/store-redis';
import type { StoreProviderUnderTest } from './eventing-lifecycle-adapter';

/** A name of the test's own, from its folder (lower case letters and digits). */
const suffixOf = (environment: PackLifecycleEnvironment) =>
  environment.directory
    .replace(/[^a-z0-9]/gi, '')
    .slice(-16)
    .toLowerCase();

/** Every store in one PostgreSQL table of the test's own (`eventing_lifecycle_<suffix>`). */
export function postgresStores(url: string, tables: Set<string>): StoreProviderUnderTest {
  return {
    name: 'PostgreSQL',
    install(builder, environment) {
      const table = `eventing_lifecycle_${suffixOf(environment)}`;
      tables.add(table);
      addPostgresStores(builder, { ConnectionString: url, TableName: table, PoolMax: 2 });
    },
  };
}

/** Every store under a Redis key prefix of the test's own (`eventing-lifecycle:<pid>:<suffix>:`). */
export function redisStores(url: string, prefixes: Set<string>): StoreProviderUnderTest {
  return {
    name: 'Redis',
    install(builder, environment) {
      const prefix = `eventing-lifecycle:${suffixOf(environment)}:`;
      prefixes.add(prefix);
      addRedisStores(builder, { Url: url, KeyPrefix: prefix });
    },
  };
}

/** The provider the SIGKILL child process uses, from the parent's `EVENTING_LIFECYCLE_STORES`. */
export function storesFromEnvironment(): StoreProviderUnderTest | undefined {
  const kind = process.env.EVENTING_LIFECYCLE_STORES;
  if (kind === 'postgresql') return postgresStores(process.env.POSTGRES_URL!, new Set());
  if (kind === 'redis') return redisStores(process.env.REDIS_URL!, new Set());
  return undefined;
}
