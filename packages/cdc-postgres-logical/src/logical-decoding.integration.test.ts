import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataRegistration } from '@corekit/data';
import { startFixture } from '@corekit/testing/child-process';
import { pollUntil } from '@corekit/testing/poll-until';
import pg from 'pg';
import { lsnValue } from './lsn';
import { logicalCluster } from './test-support/logical-cluster';

// A PostgreSQL cluster of its own (initdb on a free port, `wal_level = logical`), from the machine's
// PostgreSQL binaries (/usr/lib/postgresql/<version>/bin or PATH); the real replication protocol through
// pg-logical-replication. Never skipped: without the binaries the test fails.
jest.setTimeout(180_000);

const cluster = logicalCluster({ password: 'logical-test-password' });

/** A host with capture `orders` on `table` (slot `slot_<table>`, publication `pub_<table>`), batches of 10. */
function host(table: string, outbox: string) {
  return cluster.start({
    names: { table, outbox, slot: `slot_${table}`, publication: `pub_${table}` },
    pump: { BatchSize: 10 },
  });
}

/** Runs pump passes until `done` holds on the outbox rows (each pass runs only once the previous ended). */
async function pumpUntil(
  data: DataRegistration,
  outbox: string,
  done: (rows: Array<{ change_id: string; payload: Record<string, unknown> }>) => boolean,
) {
  return pollUntil(
    async () => {
      await data.pumpJob!.trigger();
      const exists = await cluster.admin.query('SELECT to_regclass($1) AS name', [outbox]);
      if (exists.rows[0].name === null) return [];
      return (await cluster.admin.query(`SELECT change_id, payload FROM ${outbox} ORDER BY id`)).rows;
    },
    done,
    { timeoutMs: 60_000, intervalMs: 20 },
  );
}

const slotLsn = async (slot: string) =>
  (
    await cluster.admin.query(
      `SELECT confirmed_flush_lsn::text AS lsn FROM pg_replication_slots WHERE slot_name = $1`,
      [slot],
    )
  ).rows[0]?.lsn as string | undefined;

describe('the PostgreSQL logical-decoding provider (pgoutput over the replication protocol)', () => {
  it('stages inserts, updates and deletes in commit order; the slot confirms only what was staged', async () => {
    const table = 'orders_stream';
    const outbox = 'logical_outbox_stream';
    await cluster.admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, body text NOT NULL)`);
    const { engine, data } = await host(table, outbox);
    await data.pumpJob!.trigger(); // creates the publication and the slot, opens the stream

    // Two transactions committed in the opposite order of their first writes.
    const first = new pg.Client({ connectionString: cluster.url });
    const second = new pg.Client({ connectionString: cluster.url });
    await first.connect();
    await second.connect();
    try {
      await first.query('BEGIN');
      await first.query(`INSERT INTO ${table} VALUES (1, 'first')`);
      await second.query('BEGIN');
      await second.query(`INSERT INTO ${table} VALUES (2, 'second')`);
      await second.query('COMMIT');
      await first.query('COMMIT');
    } finally {
      await first.end();
      await second.end();
    }
    await cluster.admin.query(`UPDATE ${table} SET body = 'changed' WHERE id = 2`);
    await cluster.admin.query(`DELETE FROM ${table} WHERE id = 1`);
    await cluster.admin.query(`BEGIN; INSERT INTO ${table} VALUES (9, 'rolled back'); ROLLBACK`);

    const rows = await pumpUntil(data, outbox, (staged) => staged.length >= 4);
    expect(
      rows.map((row) => [row.payload.operation, (row.payload.new ?? row.payload.key) as object]),
    ).toEqual([
      ['insert', { id: 2, body: 'second' }],
      ['insert', { id: 1, body: 'first' }],
      ['update', { id: 2, body: 'changed' }],
      ['delete', { id: 1 }],
    ]);
    expect(rows.every((row) => /^[0-9A-F]+\/[0-9A-F]+:\d+$/.test(row.change_id))).toBe(true);

    const record = data.runtime.book.record('orders');
    expect(record.acknowledgement.state).toBe('acknowledged');
    const checkpoint = record.acknowledgement.durableCheckpoint!;
    // The slot confirms the durable checkpoint (the server records the standby status update); past it only
    // what keepalives showed processed while nothing was pending.
    const confirmed = await pollUntil(
      () => slotLsn(`slot_${table}`),
      (lsn) => lsn !== undefined && lsnValue(lsn) >= lsnValue(checkpoint),
      { timeoutMs: 10_000 },
    );
    expect(lsnValue(confirmed!)).toBeGreaterThanOrEqual(lsnValue(checkpoint));
    expect(record.metadata).toMatchObject({
      replicationSlot: `slot_${table}`,
      slotLagBytes: expect.any(Number),
    });
    expect(record.completeness).toEqual({ state: 'guaranteed', reason: null });

    // A batch the outbox refuses is not confirmed: the slot stays put, and the next pass stages it.
    await cluster.admin.query(`ALTER TABLE ${outbox} ADD CONSTRAINT refuse CHECK (false) NOT VALID`);
    await cluster.admin.query(`INSERT INTO ${table} VALUES (3, 'third')`);
    await pollUntil(
      async () => {
        await data.pumpJob!.trigger();
        return data.runtime.book.record('orders');
      },
      (current) => current.lastOutcome === 'failed',
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    expect(data.runtime.book.record('orders').failureKind).toBe('staging');
    const whileRefused = (await slotLsn(`slot_${table}`))!;
    await cluster.admin.query(`ALTER TABLE ${outbox} DROP CONSTRAINT refuse`);
    const after = await pumpUntil(data, outbox, (staged) => staged.length >= 5);
    expect(after.at(-1)!.payload).toMatchObject({ operation: 'insert', new: { id: 3, body: 'third' } });
    // While refused, the slot stayed before the refused transaction's commit.
    expect(lsnValue(whileRefused)).toBeLessThan(lsnValue(after.at(-1)!.change_id.split(':')[0]!));
    expect(after).toHaveLength(5);

    // engine.restart() closes the provider and opens a new stream from the durable checkpoint.
    await engine.restart();
    await cluster.admin.query(`INSERT INTO ${table} VALUES (4, 'fourth')`);
    const restarted = await pumpUntil(data, outbox, (staged) => staged.length >= 6);
    expect(restarted.map((row) => (row.payload.new as { id?: number } | undefined)?.id ?? null)).toEqual([
      2,
      1,
      2,
      null,
      3,
      4,
    ]);
  });

  it('a pump killed mid-stream and restarted stages every committed change exactly once', async () => {
    const table = 'orders_kill';
    const outbox = 'logical_outbox_kill';
    await cluster.admin.query(`CREATE TABLE ${table} (id serial PRIMARY KEY, body text NOT NULL)`);
    const environment = {
      POSTGRES_URL: cluster.url,
      SOURCE_TABLE: table,
      OUTBOX_TABLE: outbox,
      STORE_DIRECTORY: mkdtempSync(join(tmpdir(), 'logical-pump-kill-')),
    };
    const packageDirectory = join(__dirname, '..');
    const children: Array<ReturnType<typeof startFixture>> = [];
    try {
      const first = startFixture(packageDirectory, 'logical-pump-process.ts', environment);
      children.push(first);
      // The slot exists once the first pass has run.
      await pollUntil(
        async () =>
          (
            await cluster.admin.query('SELECT 1 FROM pg_replication_slots WHERE slot_name = $1', [
              'corekit_orders',
            ])
          ).rowCount,
        (count) => count === 1,
        { timeoutMs: 60_000 },
      );
      const transactions = 150;
      for (let index = 0; index < transactions; index++) {
        await cluster.admin.query(`INSERT INTO ${table} (body) SELECT 'row' FROM generate_series(1, 10)`);
      }
      const staged = () =>
        cluster.admin
          .query(`SELECT count(*)::int AS total, count(DISTINCT change_id)::int AS distinct FROM ${outbox}`)
          .then((result) => result.rows[0] as { total: number; distinct: number })
          .catch(() => ({ total: 0, distinct: 0 }));
      const beforeKill = await pollUntil(staged, (rows) => rows.total >= 200, { timeoutMs: 60_000 });
      expect(beforeKill.total).toBeGreaterThanOrEqual(200);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBeNull();
      expect((await staged()).total).toBeLessThan(transactions * 10);

      const second = startFixture(packageDirectory, 'logical-pump-process.ts', environment);
      children.push(second);
      const done = await pollUntil(staged, (rows) => rows.total >= transactions * 10, { timeoutMs: 90_000 });
      expect(done).toEqual({ total: transactions * 10, distinct: transactions * 10 });
      const ids = await cluster.admin.query(
        `SELECT count(DISTINCT (payload->'new'->>'id'))::int AS n FROM ${outbox} WHERE payload->>'operation' = 'insert'`,
      );
      expect(ids.rows[0].n).toBe(transactions * 10);
    } finally {
      for (const child of children) if (child.child.exitCode === null) child.child.kill('SIGKILL');
      await Promise.all(children.map((child) => child.exited));
    }
  });
});
