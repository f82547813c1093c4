import { pollUntil } from '@corekit/testing/poll-until';
import { startPostgresServer } from '@corekit/testing/servers/postgres-server';
import pg from 'pg';
import { lsnValue } from './lsn';
import { logicalCluster, logicalNames } from './test-support/logical-cluster';
import { passUntilStaged, slotRow } from './test-support/logical-host';

// The source around the stream: a quiet captured table on a busy server, and start-up prerequisites. A
// PostgreSQL cluster of its own with wal_level = logical, and for the wal_level test a second one with
// wal_level = replica (both initdb on free ports, stopped at the end). Never skipped.
jest.setTimeout(180_000);

const cluster = logicalCluster({ password: 'logical-source-password', maxReplicationSlots: 4 });
const namesFor = (test: string) => logicalNames('src', test);

const publications = async (client: pg.Client, name: string) =>
  (await client.query('SELECT 1 FROM pg_publication WHERE pubname = $1', [name])).rowCount;
const slots = async (client: pg.Client, name: string) =>
  (await client.query('SELECT 1 FROM pg_replication_slots WHERE slot_name = $1', [name])).rowCount;

describe('the logical-decoding provider and its source', () => {
  it('a quiet captured table does not make the slot hold the WAL of other tables', async () => {
    const names = namesFor('quiet');
    await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL)`);
    await cluster.admin.query(`CREATE TABLE ${names.table}_busy (body text NOT NULL)`);
    const host = await cluster.start({ names });
    await host.pass();
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (1, 'one')`);
    await passUntilStaged(host, cluster.admin, names.outbox, 1);

    // 35 MiB written to another table while the captured one stays quiet.
    for (let index = 0; index < 7; index++) {
      await cluster.admin.query(
        `INSERT INTO ${names.table}_busy SELECT repeat(md5(g::text), 32) FROM generate_series(1, 5000) g`,
      );
    }
    const written = await cluster.admin.query(
      `SELECT pg_total_relation_size('${names.table}_busy')::bigint AS bytes`,
    );
    expect(Number(written.rows[0].bytes)).toBeGreaterThan(30 * 1024 * 1024);
    const bound = 4 * 1024 * 1024;
    const settled = await pollUntil(
      async () => {
        await host.pass();
        return { slot: await slotRow(cluster.admin, names.slot), state: host.state() };
      },
      ({ slot, state }) =>
        Number(slot?.lag ?? Infinity) < bound &&
        state.lag.retainedBytes !== null &&
        state.lag.retainedBytes < bound,
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    expect(Number(settled.slot!.lag)).toBeLessThan(bound);
    expect(settled.state.lag).toMatchObject({
      retainedBytes: expect.any(Number),
      retainedSeconds: expect.any(Number),
    });
    // The durable checkpoint follows what the slot confirmed: past the other table's writes.
    const staged = settled.state.changeId.split(':')[0];
    expect(lsnValue(settled.state.acknowledgement.durableCheckpoint) - lsnValue(staged)).toBeGreaterThan(
      30 * 1024 * 1024,
    );

    // A change after the quiet stretch is still staged exactly once.
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (2, 'two')`);
    const rows = await passUntilStaged(host, cluster.admin, names.outbox, 2);
    expect(rows.map((row) => row.payload.new.id)).toEqual([1, 2]);
  });

  it('a heartbeat statement runs on the source while the stream is idle, at most once per interval', async () => {
    const names = namesFor('heartbeat');
    await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY)`);
    await cluster.admin.query(`CREATE TABLE ${names.table}_beats (at timestamptz NOT NULL)`);
    const host = await cluster.start({
      names,
      logical: {
        HeartbeatQuery: `INSERT INTO ${names.table}_beats VALUES (now())`,
        HeartbeatIntervalMilliseconds: 3_600_000,
      },
    });
    const beats = async () =>
      Number((await cluster.admin.query(`SELECT count(*) AS n FROM ${names.table}_beats`)).rows[0].n);
    await pollUntil(
      async () => {
        await host.pass();
        return beats();
      },
      (count) => count > 0,
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    for (let index = 0; index < 5; index++) await host.pass();
    expect(await beats()).toBe(1);
    expect(host.state().metadata.heartbeatError).toBeUndefined();
  });

  it('a role without REPLICATION is refused before anything is created, with the fix, and backs off', async () => {
    const names = namesFor('norole');
    await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY)`);
    await cluster.admin.query(`CREATE ROLE src_norole LOGIN PASSWORD 'norole-password'`);
    await cluster.admin.query(`GRANT ALL ON DATABASE postgres TO src_norole`);
    await cluster.admin.query(`ALTER TABLE ${names.table} OWNER TO src_norole`);
    await cluster.admin.query(`GRANT ALL ON SCHEMA public TO src_norole`);
    const roleUrl = cluster.url.replace(`postgres:${cluster.password}@`, 'src_norole:norole-password@');
    const host = await cluster.start({ names, url: roleUrl });
    for (let index = 0; index < 10; index++) await host.pass();
    expect(host.state()).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'prerequisite',
      error: expect.stringContaining('ALTER ROLE'),
    });
    expect(await publications(cluster.admin, names.publication)).toBe(0);
    expect(await slots(cluster.admin, names.slot)).toBe(0);
    // Ten passes in a row, two tries: the first failure is retried once, then the capture waits.
    expect(host.records.filter((record) => record.eventId === 3193)).toHaveLength(2);
  });

  it('no free replication slot is refused before the publication is made', async () => {
    const names = namesFor('noslot');
    await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY)`);
    const free =
      4 -
      Number((await cluster.admin.query('SELECT count(*)::int AS n FROM pg_replication_slots')).rows[0].n);
    const fillers = Array.from({ length: free }, (_, index) => `src_filler_${index}`);
    for (const filler of fillers)
      await cluster.admin.query(`SELECT pg_create_logical_replication_slot($1, 'pgoutput')`, [filler]);
    try {
      const host = await cluster.start({ names });
      await host.pass();
      expect(host.state()).toMatchObject({
        failureKind: 'prerequisite',
        error: expect.stringContaining('max_replication_slots'),
      });
      expect(await publications(cluster.admin, names.publication)).toBe(0);
    } finally {
      for (const filler of fillers)
        await cluster.admin.query('SELECT pg_drop_replication_slot($1)', [filler]);
    }
  });

  it('wal_level = replica is in the capture state with its fix, and leaves no publication behind', async () => {
    const replica = await startPostgresServer({
      password: cluster.password,
      settings: ['wal_level = replica'],
    });
    const replicaUrl = replica.url.replace('postgres@', `postgres:${cluster.password}@`);
    const client = new pg.Client({ connectionString: replicaUrl });
    await client.connect();
    try {
      const names = namesFor('replica');
      await client.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY)`);
      const host = await cluster.start({ names, url: replicaUrl });
      await host.pass();
      expect(host.state()).toMatchObject({
        lastOutcome: 'failed',
        failureKind: 'prerequisite',
        error: expect.stringContaining('ALTER SYSTEM SET wal_level = logical'),
      });
      expect(await publications(client, names.publication)).toBe(0);
      expect(await slots(client, names.slot)).toBe(0);
    } finally {
      await cluster.stopAll();
      await client.end();
      await replica.close();
    }
  });
});
