export { addRedisStores } from './add-redis-stores';
export { RedisStoreProvider } from './redis-store-provider';
export type { RedisStoreProviderOptions } from './redis-store-provider';
export { redisStoresOptionsSchema, redisStoresSectionPath } from './redis-stores-options';
export type { RedisStoresOptions, RedisStoresOptionsInput } from './redis-stores-options';
