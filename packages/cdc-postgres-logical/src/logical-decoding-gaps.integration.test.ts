import { pollUntil } from '@corekit/testing/poll-until';
import { logicalCluster, logicalNames } from './test-support/logical-cluster';
import { dropSlot, passUntilStaged, slotRow, type LogicalHost } from './test-support/logical-host';

// A PostgreSQL cluster of its own (wal_level = logical, see logical-decoding.integration.test.ts); each test
// has its own table, outbox, slot and publication. Never skipped: without the binaries the test fails.
jest.setTimeout(180_000);

const cluster = logicalCluster({ password: 'logical-gaps-password' });
const namesFor = (test: string) => logicalNames('gap', test);

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
    const directory = cluster.folder('logical-gap-');
    await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL)`);
    const first = await cluster.start({ names, storeDirectory: directory });
    await first.pass();
    await cluster.admin.query(`INSERT INTO ${names.table} SELECT g, 'before' FROM generate_series(1, 5) g`);
    await passUntilStaged(first, cluster.admin, names.outbox, 5);
    const checkpoint = first.state().acknowledgement.durableCheckpoint;

    await dropSlot(cluster.admin, names.slot);
    await cluster.admin.query(`INSERT INTO ${names.table} SELECT g, 'lost' FROM generate_series(6, 105) g`);
    const gapped = await passUntil(first, (state) => state.failureKind === 'gap');
    expect(gapped).toMatchObject({
      lastOutcome: 'failed',
      completeness: { state: 'not-guaranteed', reason: expect.stringContaining('CDC_GAP_SLOT_MISSING') },
      gap: { reasonCode: 'CDC_GAP_SLOT_MISSING', checkpoint, resolution: null },
    });
    expect(first.records.filter((record) => record.eventId === 3190)).toHaveLength(1);
    for (let index = 0; index < 3; index++) await first.pass();
    expect(await slotRow(cluster.admin, names.slot)).toBeUndefined();
    const gapView = first.engine.operatorViews().find((view) => view.id === 'cdc-capture-gaps')!;
    expect((await gapView.rows()).length).toBe(1);

    // A new process on the same store: still a gap, still no slot made on its own.
    await cluster.stop(first);
    const second = await cluster.start({ names, storeDirectory: directory });
    for (let index = 0; index < 3; index++) await second.pass();
    expect(second.state()).toMatchObject({
      failureKind: 'gap',
      completeness: { state: 'not-guaranteed' },
      gap: { reasonCode: 'CDC_GAP_SLOT_MISSING', checkpoint },
    });
    expect(await slotRow(cluster.admin, names.slot)).toBeUndefined();

    // The operator accepts the gap: a new slot from now, who and when kept on the state.
    const accepted = await second.engine.operations.invoke('data.cdc-capture-accept-gap', {
      params: { cdcCaptureId: 'orders' },
      body: { note: 'slot dropped by cleanup' },
    });
    expect(accepted.status).toBe(200);
    await passUntil(second, (state) => state.gap === null && state.lastOutcome === 'idle');
    expect(await slotRow(cluster.admin, names.slot)).toBeDefined();
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (200, 'after')`);
    const rows = await passUntilStaged(second, cluster.admin, names.outbox, 6);
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
    await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL)`);
    const host = await cluster.start({ names });
    await host.pass();
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (1, 'before')`);
    await passUntilStaged(host, cluster.admin, names.outbox, 1);
    await dropSlot(cluster.admin, names.slot);
    await passUntil(host, (state) => state.failureKind === 'gap');
    // The operator makes the slot again before accepting; a change committed after it must be delivered.
    await cluster.admin.query(`SELECT pg_create_logical_replication_slot($1, 'pgoutput')`, [names.slot]);
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (2, 'after the new slot')`);
    await host.engine.operations.invoke('data.cdc-capture-accept-gap', {
      params: { cdcCaptureId: 'orders' },
      body: {},
    });
    const rows = await passUntilStaged(host, cluster.admin, names.outbox, 2);
    expect(rows.map((row) => row.payload.new.id)).toEqual([1, 2]);
    expect(host.state().gap).toBeNull();
  });

  it('a slot whose WAL was removed (wal_status lost) is a gap, not a silent restart', async () => {
    const names = namesFor('invalidated');
    await cluster.admin.query(`CREATE TABLE ${names.table} (id int PRIMARY KEY, body text NOT NULL)`);
    await cluster.admin.query(`CREATE TABLE ${names.table}_noise (body text)`);
    const first = await cluster.start({ names });
    await first.pass();
    await cluster.admin.query(`INSERT INTO ${names.table} VALUES (1, 'staged')`);
    await passUntilStaged(first, cluster.admin, names.outbox, 1);
    await cluster.stop(first);
    await cluster.admin.query(`ALTER SYSTEM SET max_slot_wal_keep_size = '1MB'`);
    await cluster.admin.query('SELECT pg_reload_conf()');
    try {
      await cluster.admin.query(`INSERT INTO ${names.table} VALUES (2, 'lost')`);
      await pollUntil(
        async () => {
          await cluster.admin.query(
            `INSERT INTO ${names.table}_noise SELECT repeat('x', 1000) FROM generate_series(1, 2000)`,
          );
          await cluster.admin.query('SELECT pg_switch_wal()');
          await cluster.admin.query('CHECKPOINT');
          return slotRow(cluster.admin, names.slot);
        },
        (row) => row?.wal_status === 'lost',
        { timeoutMs: 60_000 },
      );
    } finally {
      await cluster.admin.query('ALTER SYSTEM RESET max_slot_wal_keep_size');
      await cluster.admin.query('SELECT pg_reload_conf()');
    }
    const second = await cluster.start({ names });
    const state = await passUntil(second, (current) => current.failureKind === 'gap');
    expect(state.gap).toMatchObject({ reasonCode: 'CDC_GAP_SLOT_INVALIDATED', resolution: null });
    expect(state.completeness.state).toBe('not-guaranteed');
    expect((await slotRow(cluster.admin, names.slot))?.wal_status).toBe('lost');
  });
});
