import { layoutTooNewError } from '@corekit/abstractions';
import type pg from 'pg';

/**
 * The layout of the store table this package creates and reads (its columns and indexes). It is kept as the
 * table's comment, `corekit-keyed-store layout <n>`; a table created before layouts were recorded has no comment
 * and is layout 1. A later release that changes the table raises the number (and migrates the table); this
 * release refuses a table of a later layout with STORE_LAYOUT_TOO_NEW instead of misreading it.
 */
export const postgresStoreLayout = 1;

const marker = 'corekit-keyed-store layout ';

/** Reads the table's layout inside the creating transaction; marks an unmarked table, refuses a later one. */
export async function checkPostgresStoreLayout(
  client: pg.PoolClient,
  table: string,
  tableId: string,
): Promise<void> {
  const { rows } = await client.query<{ comment: string | null }>(
    `SELECT obj_description(to_regclass($1), 'pg_class') AS comment`,
    [table],
  );
  const comment = rows[0]?.comment ?? '';
  const found = comment.startsWith(marker) ? Number(comment.slice(marker.length)) : undefined;
  if (found !== undefined && found > postgresStoreLayout) {
    throw layoutTooNewError(`Store table ${tableId}`, '@corekit/store-postgres', found, postgresStoreLayout);
  }
  if (found === undefined) await markLayout(client, table);
}

/** Comments the table; a role that may not (not the table's owner) leaves it unmarked, read as layout 1. */
async function markLayout(client: pg.PoolClient, table: string): Promise<void> {
  await client.query('SAVEPOINT corekit_store_layout');
  try {
    await client.query(`COMMENT ON TABLE ${table} IS '${marker}${postgresStoreLayout}'`);
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    await client.query('ROLLBACK TO SAVEPOINT corekit_store_layout');
  }
}
