/** A SQL connection not yet opened, as a `pg.Client` is: the writers open and end their own. */
export interface SqlWriterConnection {
  connect(): Promise<unknown>;
  query(text: string, values?: any[]): Promise<unknown>;
  end(): Promise<unknown>;
}

/**
 * `writeConcurrently` of a SQL source of the CDC provider conformance suite: one long transaction inserts
 * `firstId` and stays open while `writers` connections each insert `idsPerWriter` ids after it, one
 * transaction per id, every fifth rolled back; then the long one commits. `insert` is the statement that
 * inserts the id `$1`. Answers the committed ids, `firstId` first.
 */
export async function writeSqlConcurrently(
  connection: () => SqlWriterConnection,
  insert: string,
  options: { writers: number; idsPerWriter: number; firstId: number },
): Promise<number[]> {
  const committed: number[] = [];
  const long = connection();
  await long.connect();
  await long.query('BEGIN');
  await long.query(insert, [options.firstId]);
  await Promise.all(
    Array.from({ length: options.writers }, async (_, writer) => {
      const client = connection();
      await client.connect();
      try {
        for (let index = 0; index < options.idsPerWriter; index++) {
          const id = options.firstId + 1 + writer * options.idsPerWriter + index;
          await client.query('BEGIN');
          await client.query(insert, [id]);
          if (index % 5 === 4) await client.query('ROLLBACK');
          else {
            await client.query('COMMIT');
            committed.push(id);
          }
        }
      } finally {
        await client.end();
      }
    }),
  );
  await long.query('COMMIT');
  await long.end();
  return [options.firstId, ...committed];
}
