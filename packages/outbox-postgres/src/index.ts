export { addPostgresOutbox } from './add-postgres-outbox';
export { PostgresOutboxStore } from './postgres-outbox-store';
export type { Queryable } from './postgres-outbox-store';
export { postgresOutboxOptionsSchema } from './postgres-outbox-options';
export type { PostgresOutboxOptions, PostgresOutboxOptionsInput } from './postgres-outbox-options';
