import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/** The configuration section `addRedisStores` binds. */
export const redisStoresSectionPath = 'Engine:Stores:Redis';

/** `Engine:Stores:Redis`: where the Redis store provider keeps every store's records. */
export const redisStoresOptionsSchema = z
  .object({
    /**
     * `redis://[user:password@]host:6379[/database]` (`rediss://` for TLS). Required. A secret: never logged or
     * shown in an error (errors name `host:port`).
     */
    Url: secretString('Redis URL of the store server'),
    /**
     * Prefix of every Redis key the stores use (`<prefix>{<store>}:r`, `:k`, `:x`). Default `corekit:store:`.
     * Give each application (or environment) sharing a server its own prefix.
     */
    KeyPrefix: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^{}\s]+$/, 'must not hold braces or whitespace')
      .default('corekit:store:'),
    /** How long connecting may take before a store call fails, in milliseconds. Default 5000. */
    ConnectTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(5000),
    /** How long one command (or script) may take before the call fails, in milliseconds. Default 10000. */
    CommandTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(10_000),
  })
  .strict();

/** The bound `Engine:Stores:Redis` section. */
export type RedisStoresOptions = z.output<typeof redisStoresOptionsSchema>;
/** Code options of `addRedisStores`, in the configuration's shape (code wins per field). */
export type RedisStoresOptionsInput = z.input<typeof redisStoresOptionsSchema>;
