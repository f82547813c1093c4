import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from '@corekit/testing/poll-until';
import { startPostgresServer, type PostgresServerProcess } from '@corekit/testing/servers/postgres-server';
import pg from 'pg';
import { passUntilStaged, slotRow, startLogicalHost, type LogicalHost } from './test-support/logical-host';

// A PostgreSQL cluster of its own (wal_level = logical, see logical-decoding.integration.test.ts); each test
// has its own table, outbox, slot and publication. Never skipped: without the binaries the test fails.
jest.setTimeout(180_000);

const password = 'logical-gaps-password';
let server: PostgresServerProcess;
let url: string;
let admin: pg.Client;
const hosts: LogicalHost[] = [];
const folders: string[] = [];

beforeAll(async () => {
  server = await startPostgresServer({
    password,
    settings: ['wal_level = logical', 'max_replication_slots = 8', 'max_wal_senders = 8'],
  });
  url = server.url.replace('postgres@', `postgres:${password}@`);
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await server?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.engine.stop();
});

function namesFor(test: string) {
  return {
    table: `gap_${test}`,
    outbox: `gap_outbox_${test}`,
    slot: `gap_slot_${test}`,
    publication: `gap_pub_${test}`,
  };
}

async function start(
  names: ReturnType<typeof namesFor>,
  storeDirectory?: string,
  serverUrl = url,
): Promise<LogicalHost> {
  const host = await startLogicalHost({
    url: serverUrl,
    names,
    ...(storeDirectory ? { storeDirectory } : {}),
  });
  hosts.push(host);
  return host;
}

async function stop(host: LogicalHost) {
  hosts.splice(hosts.indexOf(host), 1);
  await host.engine.stop();
}

/** Ends the slot's walsender (as a failover or an operator does) and drops the slot. */
async function dropSlot(slot: string) {
  await admin.query(
    'SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = $1 AND active_pid IS NOT NULL',
    [slot],
  );
  await pollUntil(
    () => slotRow(admin, slot),
    (row) => row?.active_pid === null,
    { timeoutMs: 10_000 },
  );
  await admin.query('SELECT pg_drop_replication_slot($1)', [slot]);
}

async function passUntil(host: LogicalHost, done: (state: Record<string, any>) => boolean) {
  return pollUntil(
    async () => {
      await host.pass();
      return host.state();
    },
    done,
    { timeoutMs: 30_000, intervalMs: 20 },
  );
}

describe('gaps of the logical-decoding provider: reported, stored, never papered over', () => {
  it('a slot dropped while the pump runs is a gap that survives a restart; accepting it starts a new slot', async () => {
    const names = namesFor('dropped');
    const directory = mkdtempSync(join(tmpdir(), 'logical-gap-'));
    folders.push(directory);
    await admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL)`);
    const first = await start(names, directory);
    await first.pass();
    await admin.query(`INSERT INTO ${names.table} SELECT g, 'before' FROM generate_series(1, 5) g`);
    await passUntilStaged(first, admin, names.outbox, 5);
    const checkpoint = first.state().acknowledgement.durableCheckpoint;

    await dropSlot(names.slot);
    await admin.query(`INSERT INTO ${names.table} SELECT g, 'lost' FROM generate_series(6, 105) g`);
    const gapped = await passUntil(first, (state) => state.failureKind === 'gap');
    expect(gapped).toMatchObject({
      lastOutcome: 'failed',
      completeness: { state: 'not-guaranteed', reason: expect.stringContaining('CDC_GAP_SLOT_MISSING') },
      gap: { reasonCode: 'CDC_GAP_SLOT_MISSING', checkpoint, resolution: null },
    });
    expect(first.records.filter((record) => record.eventId === 3190)).toHaveLength(1);
    for (let index = 0; index < 3; index++) await first.pass();
    expect(await slotRow(admin, names.slot)).toBeUndefined();
    const gapView = first.engine.operatorViews().find((view) => view.id === 'cdc-capture-gaps')!;
    expect((await gapView.rows()).length).toBe(1);

    // A new process on the same store: still a gap, still no slot made on its own.
    await stop(first);
    const second = await start(names, directory);
    for (let index = 0; index < 3; index++) await second.pass();
    expect(second.state()).toMatchObject({
      failureKind: 'gap',
      completeness: { state: 'not-guaranteed' },
      gap: { reasonCode: 'CDC_GAP_SLOT_MISSING', checkpoint },
    });
    expect(await slotRow(admin, names.slot)).toBeUndefined();

    // The operator accepts the gap: a new slot from now, who and when kept on the state.
    const accepted = await second.engine.operations.invoke('data.cdc-capture-accept-gap', {
      params: { cdcCaptureId: 'orders' },
      body: { note: 'slot dropped by cleanup' },
    });
    expect(accepted.status).toBe(200);
    await passUntil(second, (state) => state.gap === null && state.lastOutcome === 'idle');
    expect(await slotRow(admin, names.slot)).toBeDefined();
    await admin.query(`INSERT INTO ${names.table} VALUES (200, 'after')`);
    const rows = await passUntilStaged(second, admin, names.outbox, 6);
    expect(rows.map((row) => row.payload.new.body)).toEqual([...Array(5).fill('before'), 'after']);
    expect(second.state()).toMatchObject({
      completeness: { state: 'guaranteed' },
      lastResolvedGap: {
        reasonCode: 'CDC_GAP_SLOT_MISSING',
        resolution: { action: 'accept-gap', requestedBy: 'in-process', note: 'slot dropped by cleanup' },
      },
    });
  });

  it('accepting a gap keeps a slot made again meanwhile and streams from it (more delivered, never less)', async () => {
    const names = namesFor('remade');
    await admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL)`);
    const host = await start(names);
    await host.pass();
    await admin.query(`INSERT INTO ${names.table} VALUES (1, 'before')`);
    await passUntilStaged(host, admin, names.outbox, 1);
    await dropSlot(names.slot);
    await passUntil(host, (state) => state.failureKind === 'gap');
    // The operator makes the slot again before accepting; a change committed after it must be delivered.
    await admin.query(`SELECT pg_create_logical_replication_slot($1, 'pgoutput')`, [names.slot]);
    await admin.query(`INSERT INTO ${names.table} VALUES (2, 'after the new slot')`);
    await host.engine.operations.invoke('data.cdc-capture-accept-gap', {
      params: { cdcCaptureId: 'orders' },
      body: {},
    });
    const rows = await passUntilStaged(host, admin, names.outbox, 2);
    expect(rows.map((row) => row.payload.new.id)).toEqual([1, 2]);
    expect(host.state().gap).toBeNull();
  });

  it('a slot whose WAL was removed (wal_status lost) is a gap, not a silent restart', async () => {
    const names = namesFor('invalidated');
    await admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL)`);
    await admin.query(`CREATE TABLE ${names.table}_noise (body text)`);
    const first = await start(names);
    await first.pass();
    await admin.query(`INSERT INTO ${names.table} VALUES (1, 'staged')`);
    await passUntilStaged(first, admin, names.outbox, 1);
    await stop(first);
    await admin.query(`ALTER SYSTEM SET max_slot_wal_keep_size = '1MB'`);
    await admin.query('SELECT pg_reload_conf()');
    try {
      await admin.query(`INSERT INTO ${names.table} VALUES (2, 'lost')`);
      await pollUntil(
        async () => {
          await admin.query(
            `INSERT INTO ${names.table}_noise SELECT repeat('x', 1000) FROM generate_series(1, 2000)`,
          );
          await admin.query('SELECT pg_switch_wal()');
          await admin.query('CHECKPOINT');
          return slotRow(admin, names.slot);
        },
        (row) => row?.wal_status === 'lost',
        { timeoutMs: 60_000 },
      );
    } finally {
      await admin.query('ALTER SYSTEM RESET max_slot_wal_keep_size');
      await admin.query('SELECT pg_reload_conf()');
    }
    const second = await start(names);
    const state = await passUntil(second, (current) => current.failureKind === 'gap');
    expect(state.gap).toMatchObject({ reasonCode: 'CDC_GAP_SLOT_INVALIDATED', resolution: null });
    expect(state.completeness.state).toBe('not-guaranteed');
    expect((await slotRow(admin, names.slot))?.wal_status).toBe('lost');
  });
});
