import { layoutTooNewError } from '@corekit/abstractions';
import type { Redis } from 'ioredis';

/**
 * The layout of the keys this package writes under its prefix (`{store}:r`, `:k`, `:x` and the record text).
 * It is kept in the key `<prefix>layout`; a prefix written before layouts were recorded has none and is layout
 * 1. A later release that changes the keys raises the number; this release refuses a prefix of a later layout
 * with STORE_LAYOUT_TOO_NEW instead of misreading it. Store keys always hold a `{`, so no store collides with it.
 */
export const redisStoreLayout = 1;

/** Marks an unmarked prefix (SET NX) and refuses a later layout; run once per connection, before any script. */
export async function checkRedisStoreLayout(client: Redis, keyPrefix: string): Promise<void> {
  const key = `${keyPrefix}layout`;
  await client.set(key, String(redisStoreLayout), 'NX');
  const found = Number(await client.get(key));
  if (found > redisStoreLayout) {
    throw layoutTooNewError(
      `Redis key prefix "${keyPrefix}"`,
      '@corekit/store-redis',
      found,
      redisStoreLayout,
    );
  }
}
