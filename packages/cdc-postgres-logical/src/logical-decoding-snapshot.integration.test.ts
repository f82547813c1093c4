import { pollUntil } from '@corekit/testing/poll-until';
import pg from 'pg';
import { logicalCluster, logicalNames } from './test-support/logical-cluster';

// The initial snapshot and its hand-off to the stream, on a PostgreSQL cluster of its own (wal_level =
// logical); each test has its own table, outbox, slot and publication. Never skipped.
jest.setTimeout(180_000);

const cluster = logicalCluster({ password: 'logical-snapshot-password' });
const namesFor = (test: string) => logicalNames('snap', test);

type Row = { id: number; body: string; version: number };

/**
 * The table as the outbox tells it: snapshot reads, then stream changes, applied in staging order. Strict:
 * a row read or inserted twice, or an update or delete of a row never delivered, is a seam defect.
 */
async function replay(
  outbox: string,
  strict: boolean,
): Promise<{ rows: Map<number, Row>; defects: string[] }> {
  const rows = new Map<number, Row>();
  const defects: string[] = [];
  const exists = await cluster.admin.query('SELECT to_regclass($1) AS name', [outbox]);
  if (exists.rows[0].name === null) return { rows, defects };
  const staged = await cluster.admin.query(`SELECT change_id, payload FROM ${outbox} ORDER BY id`);
  for (const { change_id: changeId, payload } of staged.rows) {
    const id = Number((payload.new ?? payload.key).id);
    const known = rows.has(id);
    if ((payload.operation === 'read' || payload.operation === 'insert') && known && strict)
      defects.push(`${changeId}: ${payload.operation} of ${id} already delivered`);
    if ((payload.operation === 'update' || payload.operation === 'delete') && !known && strict)
      defects.push(`${changeId}: ${payload.operation} of ${id} never delivered`);
    if (payload.operation === 'delete') rows.delete(id);
    else rows.set(id, payload.new as Row);
  }
  return { rows, defects };
}

async function tableRows(table: string): Promise<Map<number, Row>> {
  const result = await cluster.admin.query(`SELECT id, body, version FROM ${table} ORDER BY id`);
  return new Map(result.rows.map((row: Row) => [row.id, row]));
}

/** Rows that differ between the replay and the table (at most 10), for a readable failure. */
function differences(replayed: Map<number, Row>, expected: Map<number, Row>): string[] {
  const found: string[] = [];
  for (const id of new Set([...replayed.keys(), ...expected.keys()])) {
    const left = JSON.stringify(replayed.get(id) ?? null);
    const right = JSON.stringify(expected.get(id) ?? null);
    if (left !== right) found.push(`${id}: outbox ${left}, table ${right}`);
  }
  return found.slice(0, 10);
}

/** Writers on their own connections: inserts, updates, deletes, one in five rolled back, until stopped. */
function startWriters(table: string, count: number, firstNewId: number) {
  let running = true;
  let nextId = firstNewId;
  const writers = Array.from({ length: count }, async (_, writer) => {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      for (let round = 0; running; round++) {
        await client.query('BEGIN');
        const id = nextId++;
        await client.query(`INSERT INTO ${table} VALUES ($1, $2, 0)`, [id, `w${writer}`]);
        await client.query(`UPDATE ${table} SET version = version + 1 WHERE id = $1`, [
          1 + ((round * 7 + writer) % 500),
        ]);
        if (round % 3 === 0)
          await client.query(`DELETE FROM ${table} WHERE id = $1`, [600 + writer * 300 + round]);
        await client.query(round % 5 === 4 ? 'ROLLBACK' : 'COMMIT');
      }
    } finally {
      await client.end();
    }
  });
  return async () => {
    running = false;
    await Promise.all(writers);
  };
}

describe('the initial snapshot of the logical-decoding provider', () => {
  it('reads the existing rows in the slot’s exported snapshot, then streams: concurrent writers meet no hole and no overlap', async () => {
    const names = namesFor('handoff');
    await cluster.admin.query(
      `CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL, version int NOT NULL)`,
    );
    await cluster.admin.query(
      `INSERT INTO ${names.table} SELECT g, 'seed', 0 FROM generate_series(1, 3000) g`,
    );
    const stopWriters = startWriters(names.table, 3, 100_000);
    let stopped = false;
    try {
      const host = await cluster.start({ names, pump: { BatchSize: 200, MaxBatchesPerPass: 2 } });
      const handedOff = await pollUntil(
        async () => {
          await host.pass();
          return host.state();
        },
        (state) => state.metadata.snapshotState === 'done' && state.lastOutcome !== 'failed',
        { timeoutMs: 90_000, intervalMs: 10 },
      );
      // Writers keep going a little after the hand-off, then stop.
      await host.pass();
      await stopWriters();
      stopped = true;
      const expected = await tableRows(names.table);
      const replayed = await pollUntil(
        async () => {
          await host.pass();
          return replay(names.outbox, true);
        },
        ({ rows }) => differences(rows, expected).length === 0,
        { timeoutMs: 60_000, intervalMs: 20 },
      );
      expect(replayed.defects).toEqual([]);
      expect(differences(replayed.rows, expected)).toEqual([]);
      expect(handedOff.metadata).toMatchObject({ snapshotState: 'done', snapshotExact: true });
      expect(handedOff.metadata.snapshotRowsRead).toBeGreaterThanOrEqual(2900);
      expect(host.state().completeness.state).toBe('guaranteed');
    } finally {
      if (!stopped) await stopWriters();
    }
  });

  it('a snapshot interrupted by a restart resumes after its last staged key, losing nothing', async () => {
    const names = namesFor('resume');
    const directory = cluster.folder('logical-snapshot-');
    await cluster.admin.query(
      `CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL, version int NOT NULL)`,
    );
    await cluster.admin.query(
      `INSERT INTO ${names.table} SELECT g, 'seed', 0 FROM generate_series(1, 2000) g`,
    );
    const pump = { BatchSize: 300, MaxBatchesPerPass: 2 };
    const first = await cluster.start({ names, pump, storeDirectory: directory });
    await first.pass();
    const interrupted = first.state();
    expect(interrupted.metadata).toMatchObject({ snapshotState: 'running', snapshotRowsRead: 600 });
    expect(interrupted.checkpoint).toMatch(/^snapshot:[0-9A-F]+\/[0-9A-F]+:\["600"\]$/);
    await cluster.stop(first);

    await cluster.admin.query(`UPDATE ${names.table} SET version = 7 WHERE id IN (5, 1500)`);
    await cluster.admin.query(`DELETE FROM ${names.table} WHERE id IN (6, 1600)`);
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (5000, 'late', 0)`);
    const second = await cluster.start({ names, pump, storeDirectory: directory });
    const handedOff = await pollUntil(
      async () => {
        await second.pass();
        return second.state();
      },
      (state) => state.metadata.snapshotState === 'done',
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    expect(handedOff.metadata).toMatchObject({ snapshotExact: false });
    const expected = await tableRows(names.table);
    const replayed = await pollUntil(
      async () => {
        await second.pass();
        return replay(names.outbox, false);
      },
      ({ rows }) => differences(rows, expected).length === 0,
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    expect(differences(replayed.rows, expected)).toEqual([]);
    const reads = await cluster.admin.query(
      `SELECT count(*)::int AS n, count(DISTINCT payload->'key'->>'id')::int AS keys FROM ${names.outbox} WHERE payload->>'operation' = 'read'`,
    );
    expect(reads.rows[0].n).toBe(reads.rows[0].keys);
  });

  it('snapshotMode never streams only what commits after the slot is made; re-snapshot reads the rows again', async () => {
    const names = namesFor('never');
    await cluster.admin.query(
      `CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL, version int NOT NULL)`,
    );
    await cluster.admin.query(`INSERT INTO ${names.table} SELECT g, 'seed', 0 FROM generate_series(1, 50) g`);
    const host = await cluster.start({ names, metadata: { snapshotMode: 'never' } });
    await host.pass();
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (51, 'new', 0)`);
    await pollUntil(
      async () => {
        await host.pass();
        return (await replay(names.outbox, true)).rows;
      },
      (rows) => rows.size === 1,
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    const requested = await host.engine.operations.invoke('data.cdc-capture-re-snapshot', {
      params: { cdcCaptureId: 'orders' },
      body: {},
    });
    expect(requested.status).toBe(200);
    await pollUntil(
      async () => {
        await host.pass();
        return host.state();
      },
      (state) => state.metadata.snapshotState === 'done' && state.restartRequest === null,
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    const reads = await cluster.admin.query(
      `SELECT count(*)::int AS n FROM ${names.outbox} WHERE payload->>'operation' = 'read'`,
    );
    expect(reads.rows[0].n).toBe(51);
  });
});
