import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/** The configuration section `addPostgresStores` binds. */
export const postgresStoresSectionPath = 'Engine:Stores:PostgreSql';

const sqlIdentifier = z
  .string()
  .regex(
    /^[a-z_][a-z0-9_]{0,49}$/,
    'must be a lower-case SQL identifier (a letter or _, then letters, digits, _; at most 50)',
  );

/** `Engine:Stores:PostgreSql`: where the PostgreSQL store provider keeps every store's records. */
export const postgresStoresOptionsSchema = z
  .object({
    /** `postgres://user:password@host:5432/database`. Required. A secret: never logged or shown in an error. */
    ConnectionString: secretString('PostgreSQL connection string of the store database'),
    /** Schema of the store table. Default `public`. */
    Schema: sqlIdentifier.default('public'),
    /** The one table holding every store's records, keyed by (store name, key). Default `corekit_stores`. */
    TableName: sqlIdentifier.default('corekit_stores'),
    /** Create the table and its indexes before the first statement when missing. Default true. */
    CreateTable: z.boolean().default(true),
    /** Most connections of this process's pool. Default 10; 1 to 100. */
    PoolMax: z.number().int().min(1).max(100).default(10),
    /** How long opening a connection may take before the store call fails, in milliseconds. Default 5000. */
    ConnectTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(5000),
    /** Server-side `statement_timeout` of every statement, in milliseconds. Default 10000. */
    StatementTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(10_000),
  })
  .strict();

/** The bound `Engine:Stores:PostgreSql` section. */
export type PostgresStoresOptions = z.output<typeof postgresStoresOptionsSchema>;
/** Code options of `addPostgresStores`, in the configuration's shape (code wins per field). */
export type PostgresStoresOptionsInput = z.input<typeof postgresStoresOptionsSchema>;
