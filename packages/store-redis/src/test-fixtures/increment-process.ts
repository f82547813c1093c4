// One replica of the shared provider suite's cross-process test, on its own provider (own client).
import { runStoreIncrementReplica } from '@corekit/testing/store-increment-replica';
import { RedisStoreProvider } from '../redis-store-provider';

runStoreIncrementReplica(
  (namespace) => new RedisStoreProvider({ url: process.env.REDIS_URL!, keyPrefix: namespace }),
);
