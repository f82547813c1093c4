import { type EngineBuilder } from '@corekit/abstractions';
import { RedisStoreProvider } from './redis-store-provider';
import {
  redisStoresOptionsSchema,
  redisStoresSectionPath,
  type RedisStoresOptionsInput,
} from './redis-stores-options';

/**
 * Puts every engine store (`builder.openStore`, whoever opened it and whenever) on Redis: section
 * `Engine:Stores:Redis`, code options winning per field. Leave `Engine:Stores:Provider` unset or set it to
 * `Redis`; any other value is a startup error. The client connects at the first store call and closes when
 * the engine stops. Returns the provider.
 */
export function addRedisStores(
  builder: EngineBuilder,
  options?: RedisStoresOptionsInput,
): RedisStoreProvider {
  builder.claimRegistration({ packageName: '@corekit/store-redis', entry: 'addRedisStores' });
  builder.declarePack({ packageName: '@corekit/store-redis', specificationVersion: 1 });
  const settings = builder.configuration.bind(redisStoresSectionPath, redisStoresOptionsSchema, options);
  const provider = new RedisStoreProvider({
    url: settings.Url,
    keyPrefix: settings.KeyPrefix,
    connectTimeoutMs: settings.ConnectTimeoutMilliseconds,
    commandTimeoutMs: settings.CommandTimeoutMilliseconds,
  });
  builder.useStoreProvider(provider);
  return provider;
}
