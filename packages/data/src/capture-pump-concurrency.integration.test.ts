import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixture } from '@corekit/testing/child-process';
import { pollUntil } from '@corekit/testing/poll-until';
import pg from 'pg';
import { postgresSource, postgresUrl } from './test-support/postgres-source';

// Real PostgreSQL (POSTGRES_URL or 127.0.0.1:5432, database test); the pump runs in a child process (tsx),
// the writers on their own connections. A change's sequence value is taken at INSERT, the row becomes
// visible at COMMIT: the property is that the pump never moves its checkpoint past a change that may still
// commit, whatever the commit order, aborts and pump restarts.
jest.setTimeout(240_000);

const packageDirectory = join(__dirname, '..');
const writers = 6;
const transactionsPerWriter = 120;

type Source = Awaited<ReturnType<typeof postgresSource>>;

/** One writer on its own connection: short transactions of 1-4 single-row INSERTs, about one in six rolled back. */
async function write(
  source: Source,
  rolledBack: number[],
  random: () => number,
  progress: () => Promise<void>,
) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    for (let transaction = 0; transaction < transactionsPerWriter; transaction++) {
      await client.query('BEGIN');
      const ids: number[] = [];
      const rows = 1 + Math.floor(random() * 4);
      for (let row = 0; row < rows; row++) {
        // A server-side pause of up to 2 ms between statements lets transactions interleave and commit out
        // of sequence order.
        const inserted = await client.query(
          `INSERT INTO ${source.source} (body) SELECT 'w' FROM pg_sleep($1) RETURNING change_id::int AS id`,
          [random() * 0.002],
        );
        ids.push(inserted.rows[0].id);
      }
      // Holding the transaction open a little after its last INSERT makes later sequence values commit first.
      await client.query('SELECT pg_sleep($1)', [random() * 0.005]);
      if (random() < 1 / 6) {
        await client.query('ROLLBACK');
        rolledBack.push(...ids);
      } else {
        await client.query('COMMIT');
      }
      await progress();
    }
  } finally {
    await client.end();
  }
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the polling pump under concurrent writers, long and aborted transactions, and a kill', () => {
  it('stages every committed change exactly once and no rolled-back one', async () => {
    const source = await postgresSource('cdcrace', { transactionColumn: 'change_xid' });
    const children: Array<ReturnType<typeof startFixture>> = [];
    const longCommitted = new pg.Client({ connectionString: postgresUrl });
    const longAborted = new pg.Client({ connectionString: postgresUrl });
    const rolledBack: number[] = [];
    try {
      await longCommitted.connect();
      await longAborted.connect();
      const environment = {
        POSTGRES_URL: postgresUrl,
        SOURCE_TABLE: source.source,
        OUTBOX_TABLE: source.outbox,
        STORE_DIRECTORY: mkdtempSync(join(tmpdir(), 'data-pump-race-')),
        TRANSACTION_COLUMN: 'change_xid',
        BATCH_SIZE: '25',
      };
      const first = startFixture(packageDirectory, 'pump-process.ts', environment);
      children.push(first);
      await first.waitForLine('PASS', 60_000);

      // Two long transactions take early sequence values and stay open while the writers commit later ones;
      // when half of the writers' transactions are done, one commits and the other rolls back.
      await longCommitted.query('BEGIN');
      await longCommitted.query(`INSERT INTO ${source.source} (body) VALUES ('long')`);
      await longAborted.query('BEGIN');
      const abortedEarly = await longAborted.query(
        `INSERT INTO ${source.source} (body) VALUES ('long aborted') RETURNING change_id::int AS id`,
      );
      let done = 0;
      let longEnded: Promise<void> | null = null;
      const endLongTransactions = async () => {
        const second = await longAborted.query(
          `INSERT INTO ${source.source} (body) VALUES ('long aborted, second row') RETURNING change_id::int AS id`,
        );
        await longAborted.query('ROLLBACK');
        rolledBack.push(abortedEarly.rows[0].id, second.rows[0].id);
        await longCommitted.query(`INSERT INTO ${source.source} (body) VALUES ('long, second row')`);
        await longCommitted.query('COMMIT');
      };
      const progress = async () => {
        done += 1;
        if (done === (writers * transactionsPerWriter) / 2) longEnded = endLongTransactions();
        if (longEnded) await longEnded;
      };
      const writing = Promise.all(
        Array.from({ length: writers }, (_, index) => write(source, rolledBack, seeded(index + 1), progress)),
      );
      // Kill the pump once it has staged a few batches, and start another on the same durable state.
      const stagedBeforeKill = await pollUntil(
        () => source.outboxRows('orders'),
        (rows) => rows.total >= 100,
        { timeoutMs: 60_000 },
      );
      expect(stagedBeforeKill.total).toBeGreaterThanOrEqual(100);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBeNull();
      const second = startFixture(packageDirectory, 'pump-process.ts', environment);
      children.push(second);
      await writing;
      expect(longEnded).not.toBeNull();

      const committed = (await source.client.query(`SELECT count(*)::int AS n FROM ${source.source}`)).rows[0]
        .n as number;
      const missing = async () =>
        (
          await source.client.query(
            `SELECT count(*)::int AS n FROM ${source.source} s
             WHERE NOT EXISTS (SELECT 1 FROM ${source.outbox} o
                               WHERE o.cdc_capture_id = 'orders' AND o.change_id = s.change_id::text)`,
          )
        ).rows[0].n as number;
      // A skipped change is never read again, so a pump that skipped one never gets here.
      const unstaged = await pollUntil(missing, (count) => count === 0, { timeoutMs: 60_000 });
      expect(unstaged).toBe(0);
      const staged = await source.outboxRows('orders');
      expect(staged.total).toBe(committed);
      expect(staged.distinct).toBe(committed);
      const leaked = await source.client.query(
        `SELECT count(*)::int AS n FROM ${source.outbox}
         WHERE cdc_capture_id = 'orders' AND change_id = ANY($1::text[])`,
        [rolledBack.map(String)],
      );
      expect(rolledBack.length).toBeGreaterThan(writers * 5);
      expect(leaked.rows[0].n).toBe(0);
    } finally {
      for (const child of children) if (child.child.exitCode === null) child.child.kill('SIGKILL');
      await longCommitted.end().catch(() => undefined);
      await longAborted.end().catch(() => undefined);
      await source.drop();
    }
  });
});
