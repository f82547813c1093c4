import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addEventing, declareEventing, type EventMessage } from '@corekit/eventing';
import { captureTelemetry } from '@corekit/testing/capture-telemetry';
import { pollUntil } from '@corekit/testing/poll-until';
import { startFixture, type FixtureProcess } from '@corekit/testing/child-process';
import { requireService } from '@corekit/testing/require-service';
import { expectDatabaseClientTelemetry } from '@corekit/testing/semantic-convention-expectations';
import { addPostgresOutbox } from './add-postgres-outbox';
import { claimStatement, PostgresOutboxStore } from './postgres-outbox-store';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const packageDirectory = path.resolve(__dirname, '..');
const table = `outbox_test_${process.pid}`;
let pool: pg.Pool;
let available = false;
const children: FixtureProcess[] = [];

beforeAll(async () => {
  available = await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL');
  if (!available) return;
  pool = new pg.Pool({ connectionString: postgresUrl });
  await pool.query(`DROP TABLE IF EXISTS ${table}, ${table}_sends`);
  await pool.query(`CREATE TABLE ${table}_sends (id text NOT NULL, pid integer NOT NULL)`);
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await child.exited;
  }
});

afterAll(async () => {
  if (!available) return;
  await pool.query(`DROP TABLE IF EXISTS ${table}, ${table}_sends`);
  await pool.end();
});

const message = (publicationId: string): EventMessage => ({
  publicationId,
  channelId: 'orders',
  eventType: 'order-placed',
  payload: { publicationId },
  occurredAtUtc: new Date().toISOString(),
  contentType: 'application/json',
  correlationId: null,
  tenantId: null,
  headers: {},
  metadata: {},
  actorId: null,
});

async function stageMany(outboxId: string, count: number): Promise<string[]> {
  const store = new PostgresOutboxStore(pool, outboxId, { tableName: table });
  const ids = Array.from({ length: count }, (_, index) => `${outboxId}-${String(index).padStart(4, '0')}`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const id of ids) await store.stageInTransaction(client, message(id));
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return ids;
}

async function waitForDispatched(outboxId: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < 3000; attempt += 1) {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM ${table} WHERE outbox_id = $1 AND status = 'dispatched'`,
      [outboxId],
    );
    if (rows[0].n === count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not every message of ${outboxId} was dispatched`);
}

async function sends(outboxId: string): Promise<Array<{ id: string; pid: number }>> {
  const { rows } = await pool.query(`SELECT id, pid FROM ${table}_sends WHERE id LIKE $1 || '-%'`, [
    outboxId,
  ]);
  return rows;
}

function startDispatcher(outboxId: string, environment: Record<string, string> = {}): FixtureProcess {
  const child = startFixture(packageDirectory, 'dispatch-process.ts', {
    POSTGRES_URL: postgresUrl,
    OUTBOX_TABLE: table,
    OUTBOX_ID: outboxId,
    ...environment,
  });
  children.push(child);
  return child;
}

describe('PostgreSQL outbox', () => {
  it('release gives a claimed row back at once, in its place, with its attempt uncounted; only the owner releases', async () => {
    const store = new PostgresOutboxStore(pool, `release-${process.pid}`, { tableName: table });
    await store.stage(message('released-1'));
    const [claim] = await store.claim('owner-a', 10, 30_000);
    expect(claim).toMatchObject({ id: 'released-1', attempt: 1 });
    expect(await store.release('released-1', 'owner-b')).toBe(false);
    expect(await store.release('released-1', 'owner-a')).toBe(true);
    const [again] = await store.claim('owner-b', 10, 30_000);
    expect(again).toMatchObject({ id: 'released-1', attempt: 1 });
    expect(await store.complete('released-1', 'owner-b')).toBe(true);
    expect(await store.pendingCount()).toBe(0);
  });

  it('extend keeps a held claim past its lease; a lapsed claim taken over is not extended', async () => {
    const outboxId = `extend-${process.pid}`;
    const store = new PostgresOutboxStore(pool, outboxId, { tableName: table });
    await store.stage(message('extended-1'));
    await store.stage(message('extended-2'));
    expect((await store.claim('owner-a', 10, 1)).map((claim) => claim.id).sort()).toEqual([
      'extended-1',
      'extended-2',
    ]);
    // Both claims have lapsed (a 1 ms lease): without a renewal anyone may take them now.
    await pollUntil(
      async () =>
        (
          await pool.query(
            `SELECT bool_and(claim_expires_at < clock_timestamp()) AS lapsed FROM ${table} WHERE outbox_id = $1`,
            [outboxId],
          )
        ).rows[0].lapsed as boolean,
      (lapsed) => lapsed,
    );
    expect(await store.extend(['extended-1'], 'owner-a', 60_000)).toEqual(['extended-1']);
    expect((await store.claim('owner-b', 10, 60_000)).map((claim) => claim.id)).toEqual(['extended-2']);
    expect(await store.extend(['extended-1', 'extended-2'], 'owner-a', 60_000)).toEqual(['extended-1']);
    expect(await store.completeMany(['extended-1', 'extended-2'], 'owner-a')).toEqual(['extended-1']);
    expect(await store.complete('extended-2', 'owner-b')).toBe(true);
  });

  it('stages inside the caller transaction: a rollback leaves nothing, a commit leaves one row per publication', async () => {
    if (!available) return;
    const outboxId = `tx-${randomUUID().slice(0, 8)}`;
    const store = new PostgresOutboxStore(pool, outboxId, { tableName: table });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await store.stageInTransaction(client, message(`${outboxId}-rolled-back`));
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      expect(await store.stageInTransaction(client, message(`${outboxId}-committed`))).toBe(true);
      expect(await store.stageInTransaction(client, message(`${outboxId}-committed`))).toBe(false);
      expect(await store.pendingCount()).toBe(0);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await store.pendingCount()).toBe(1);
    const claimed = await store.claim('owner-a', 10, 60_000);
    expect(claimed.map((entry) => [entry.id, entry.attempt])).toEqual([[`${outboxId}-committed`, 1]]);
    expect(await store.claim('owner-b', 10, 60_000)).toEqual([]);
    expect(await store.complete(claimed[0].id, 'owner-b')).toBe(false);
    expect(await store.complete(claimed[0].id, 'owner-a')).toBe(true);
    expect(await store.pendingCount()).toBe(0);
  });

  it('publishes through the pack into PostgreSQL and dispatches to the in-process subscriptions, measuring each statement', async () => {
    if (!available) return;
    const capture = captureTelemetry();
    const outboxId = `pack-${randomUUID().slice(0, 8)}`;
    const delivered: string[] = [];
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    builder.addModule({ id: 'orders', version: '1.0.0' });
    declareEventing(builder, {
      moduleId: 'orders',
      channels: [{ id: 'orders' }],
      subscriptions: [
        {
          id: 'billing',
          channelId: 'orders',
          execute: ({ message }) => void delivered.push(message.publicationId),
        },
      ],
    });
    addEventing(builder, { Outbox: { Enabled: true, OutboxId: outboxId, DispatchIntervalMilliseconds: 20 } });
    addPostgresOutbox(builder, { ConnectionString: postgresUrl, TableName: table });
    const engine = builder.build();
    await engine.start();
    try {
      const answer = await engine.operations.invoke('eventing.publish', {
        body: { id: `${outboxId}-1`, channelId: 'orders', eventType: 'order-placed', payload: { a: 1 } },
      });
      expect(answer.body).toMatchObject({ metadata: { staged: true, outboxId } });
      await waitForDispatched(outboxId, 1);
      expect(delivered).toEqual([`${outboxId}-1`]);
      expect(engine.catalog('event-dispatch-runtimes')!.entries()).toEqual([
        expect.objectContaining({ ownership: expect.objectContaining({ outboxProvider: 'postgresql' }) }),
      ]);
      // Staging inserts, the claim is one `WITH ... UPDATE`, the settlement an UPDATE: each a CLIENT span
      // and a db.client.operation.duration point on the outbox table.
      await expectDatabaseClientTelemetry(capture, {
        system: 'postgresql',
        operations: ['INSERT', 'WITH', 'UPDATE'],
        collection: `public.${table}`,
      });
      const insert = capture.spans().find((span) => span.attributes['db.operation.name'] === 'INSERT');
      expect(insert?.attributes).toMatchObject({
        'db.namespace': 'test',
        'server.address': '127.0.0.1',
        'server.port': 5432,
      });
    } finally {
      await engine.stop();
      await capture.stop();
    }
  });

  it('with DispatchedRetentionMinutes 0 a dispatched row is deleted at once (staging its id again stages anew)', async () => {
    if (!available) return;
    const outboxId = `del-${randomUUID().slice(0, 8)}`;
    const store = new PostgresOutboxStore(pool, outboxId, { tableName: table, deleteDispatched: true });
    expect(await store.stage(message(`${outboxId}-1`))).toBe(true);
    const [claimed] = await store.claim('owner-a', 10, 60_000);
    expect(await store.completeMany([claimed!.id], 'owner-b')).toEqual([]);
    expect(await store.completeMany([claimed!.id], 'owner-a')).toEqual([`${outboxId}-1`]);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE outbox_id = $1`, [
      outboxId,
    ]);
    expect(rows[0].n).toBe(0);
    expect(await store.stage(message(`${outboxId}-1`))).toBe(true);
  });

  it('two host processes dispatch one outbox with no message sent twice', async () => {
    if (!available) return;
    const outboxId = `two-${randomUUID().slice(0, 8)}`;
    const ids = await stageMany(outboxId, 300);
    const first = startDispatcher(outboxId);
    const second = startDispatcher(outboxId);
    await Promise.all([first.waitForLine('READY', 60_000), second.waitForLine('READY', 60_000)]);
    await waitForDispatched(outboxId, ids.length);
    const sent = await sends(outboxId);
    expect(sent).toHaveLength(ids.length);
    expect(new Set(sent.map((entry) => entry.id))).toEqual(new Set(ids));
  });

  it('loses nothing when a process dies mid-batch: its claims expire and the other process sends them', async () => {
    if (!available) return;
    const outboxId = `kill-${randomUUID().slice(0, 8)}`;
    const ids = await stageMany(outboxId, 40);
    const dying = startDispatcher(outboxId, { HANG_AFTER: '3', LEASE_SECONDS: '1' });
    await dying.waitForLine('HUNG', 60_000);
    const dyingPid = dying.child.pid!;
    dying.child.kill('SIGKILL');
    await dying.exited;
    const { rows: held } = await pool.query(
      `SELECT id FROM ${table} WHERE outbox_id = $1 AND status = 'pending' AND claim_owner IS NOT NULL`,
      [outboxId],
    );
    expect(held.length).toBeGreaterThan(0);
    const survivor = startDispatcher(outboxId, { LEASE_SECONDS: '1' });
    await survivor.waitForLine('READY', 60_000);
    await waitForDispatched(outboxId, ids.length);
    const sent = await sends(outboxId);
    expect(new Set(sent.map((entry) => entry.id))).toEqual(new Set(ids));
    const heldIds = new Set(held.map((row: { id: string }) => row.id));
    const perId = new Map<string, number[]>();
    for (const entry of sent) perId.set(entry.id, [...(perId.get(entry.id) ?? []), entry.pid]);
    for (const [id, pids] of perId) {
      if (pids.length > 1) {
        // Only a message the dead process had claimed and sent without confirming is sent again, once.
        expect(heldIds.has(id)).toBe(true);
        expect(pids).toHaveLength(2);
        expect(pids).toContain(dyingPid);
      }
    }
    // Two child processes start through tsx (each wait above is bounded at 60 s): the test's own bound covers them.
  }, 180_000);
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describe('the claim plan under stale statistics and a large foreign backlog', () => {
  const planTable = `outbox_plan_${process.pid}`;
  afterAll(async () => {
    if (available) await pool.query(`DROP TABLE IF EXISTS ${planTable}`);
  });

  it('locks the batch through the due index and updates it by address: no scan over the outbox id rows', async () => {
    if (!available) return;
    const store = new PostgresOutboxStore(pool, 'mine', { tableName: planTable });
    await store.ensureSchema();
    await pool.query(`ALTER TABLE ${planTable} SET (autovacuum_enabled = false)`);
    const insert = (outboxId: string, prefix: string, count: number, status: string) =>
      pool.query(
        `INSERT INTO ${planTable} (outbox_id, id, channel_id, event_type, message, status)
         SELECT $1, $2 || g, 'orders', 'order-placed', '{}'::jsonb, $4 FROM generate_series(1, $3) g`,
        [outboxId, prefix, count, status],
      );
    // Statistics taken while the table held only another outbox's dispatched backlog: they say outbox
    // "mine" has (almost) no rows. Then "mine" gets its own dispatched history and a due backlog.
    await insert('foreign', 'f', 40_000, 'dispatched');
    await pool.query(`ANALYZE ${planTable}`);
    await insert('mine', 'done-', 40_000, 'dispatched');
    await insert('mine', 'due-', 500, 'pending');

    const explained = await pool.query(`EXPLAIN (FORMAT JSON) ${claimStatement(`"public"."${planTable}"`)}`, [
      'mine',
      50,
      'owner',
      60_000,
    ]);
    const root = (explained.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0].Plan;
    const nodes = planNodes(root);
    const scans = nodes
      .filter((node) => node['Relation Name'] === planTable && node['Node Type'] !== 'ModifyTable')
      .map((node) => [node['Node Type'], node['Index Name'] ?? null]);
    // Exactly two touches of the table: the due index under the LIMIT (at most a batch of rows), and the
    // update by row address (the batch itself). No Seq Scan, no primary-key walk over the outbox id.
    expect(scans.sort()).toEqual([
      ['Index Scan', `${planTable}_due`],
      ['Tid Scan', null],
    ]);
    const limit = nodes.find((node) => node['Node Type'] === 'Limit')!;
    expect(planNodes(limit).map((node) => node['Index Name'] ?? null)).toContain(`${planTable}_due`);

    // The statement claims the batch in staging order.
    const claimed = await store.claim('owner', 50, 60_000);
    expect(claimed).toHaveLength(50);
    expect(claimed.every((entry) => entry.id.startsWith('due-') && entry.attempt === 1)).toBe(true);
    expect(await store.claim('other', 1000, 60_000)).toHaveLength(450);
  });
});
