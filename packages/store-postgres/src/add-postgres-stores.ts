import { type EngineBuilder } from '@corekit/abstractions';
import { PostgresStoreProvider } from './postgres-store-provider';
import {
  postgresStoresOptionsSchema,
  postgresStoresSectionPath,
  type PostgresStoresOptionsInput,
} from './postgres-stores-options';

/**
 * Puts every engine store (`builder.openStore`, whoever opened it and whenever) on PostgreSQL: section
 * `Engine:Stores:PostgreSql`, code options winning per field. Leave `Engine:Stores:Provider` unset or set it
 * to `PostgreSql`; any other value is a startup error. The pool opens at the first store call and closes
 * when the engine stops. Returns the provider.
 */
export function addPostgresStores(
  builder: EngineBuilder,
  options?: PostgresStoresOptionsInput,
): PostgresStoreProvider {
  builder.claimRegistration({ packageName: '@corekit/store-postgres', entry: 'addPostgresStores' });
  builder.declarePack({ packageName: '@corekit/store-postgres', specificationVersion: 1 });
  const settings = builder.configuration.bind(
    postgresStoresSectionPath,
    postgresStoresOptionsSchema,
    options,
  );
  const provider = new PostgresStoreProvider({
    connectionString: settings.ConnectionString,
    schema: settings.Schema,
    tableName: settings.TableName,
    createTable: settings.CreateTable,
    poolMax: settings.PoolMax,
    connectTimeoutMs: settings.ConnectTimeoutMilliseconds,
    statementTimeoutMs: settings.StatementTimeoutMilliseconds,
  });
  builder.useStoreProvider(provider);
  return provider;
}
