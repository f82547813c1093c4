export { addPostgresStores } from './add-postgres-stores';
export { PostgresStoreProvider } from './postgres-store-provider';
export type { PostgresStoreProviderOptions } from './postgres-store-provider';
export { postgresStoresOptionsSchema, postgresStoresSectionPath } from './postgres-stores-options';
export type { PostgresStoresOptions, PostgresStoresOptionsInput } from './postgres-stores-options';
