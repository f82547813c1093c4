import type { EngineBuilder } from '@corekit/abstractions';
import { addPostgresStores } from '@corekit/store-postgres';
import { addRedisStores } from '@corekit/store-redis';

/**
 * Opt-in shared stores for running the sample as several replicas: with `Engine__Stores__Provider=PostgreSql`
 * (and `Engine__Stores__PostgreSql__ConnectionString`) or `Engine__Stores__Provider=Redis` (and
 * `Engine__Stores__Redis__Url`), every store of every pack lives there. Otherwise nothing is added and the
 * stores stay on the embedded default. Returns the provider kind chosen, or undefined.
 */
export function addSharedStoresWhenConfigured(builder: EngineBuilder): 'postgresql' | 'redis' | undefined {
  const provider = builder.configuration.get('Engine:Stores:Provider');
  const chosen = typeof provider === 'string' ? provider.toLowerCase() : undefined;
  if (chosen === 'postgresql') {
    addPostgresStores(builder);
    return 'postgresql';
  }
  if (chosen === 'redis') {
    addRedisStores(builder);
    return 'redis';
  }
  return undefined;
}
