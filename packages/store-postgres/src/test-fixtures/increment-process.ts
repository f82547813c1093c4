// One replica of the shared provider suite's cross-process test, on its own provider (own pool of four).
import { runStoreIncrementReplica } from '@corekit/testing/store-increment-replica';
import { PostgresStoreProvider } from '../postgres-store-provider';

runStoreIncrementReplica(
  (namespace) =>
    new PostgresStoreProvider({
      connectionString: process.env.POSTGRES_URL!,
      tableName: namespace,
      poolMax: 4,
    }),
);
