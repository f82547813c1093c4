// (a) Staging cost: one transaction inserting a business row plus the outbox row through
// `PostgresOutboxStore.stageInTransaction`, against the same transaction with a bare INSERT of the same row
// into an identical table. Interleaved rounds; per-transaction medians.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { EventMessage } from '@corekit/eventing';
import { PostgresOutboxStore } from '@corekit/outbox-postgres';

export interface StagingResult {
  readonly packMedianMs: number;
  readonly bareMedianMs: number;
  readonly ratio: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function stagingBenchmark(
  url: string,
  rounds: number,
  perRound: number,
): Promise<StagingResult> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const table = `bench_outbox_${process.pid}`;
  await pool.query(`DROP TABLE IF EXISTS ${table}, ${table}_bare, ${table}_orders`);
  await pool.query(`CREATE TABLE ${table}_orders (id text PRIMARY KEY, amount integer NOT NULL)`);
  const store = new PostgresOutboxStore(pool, 'bench', { tableName: table });
  await store.ensureSchema();
  await pool.query(`CREATE TABLE ${table}_bare (LIKE ${table} INCLUDING ALL)`);
  const client = await pool.connect();
  let sequence = 0;
  const message = (id: string): EventMessage => ({
    publicationId: id,
    channelId: 'orders',
    eventType: 'order-placed',
    payload: { orderId: id, amount: 42 },
    occurredAtUtc: new Date().toISOString(),
    contentType: 'application/json',
    correlationId: null,
    tenantId: null,
    headers: {},
    metadata: {},
    actorId: null,
  });
  const transaction = async (stage: (id: string) => Promise<unknown>) => {
    const id = `o-${++sequence}`;
    const started = performance.now();
    await client.query('BEGIN');
    await client.query(`INSERT INTO ${table}_orders (id, amount) VALUES ($1, 42)`, [id]);
    await stage(id);
    await client.query('COMMIT');
    return performance.now() - started;
  };
  const pack = (id: string) => store.stageInTransaction(client, message(id));
  const bare = (id: string) => {
    const value = message(id);
    return client.query(
      `INSERT INTO ${table}_bare (outbox_id, id, channel_id, event_type, message) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (outbox_id, id) DO NOTHING`,
      ['bench', id, value.channelId, value.eventType, JSON.stringify(value)],
    );
  };
  const packTimes: number[] = [];
  const bareTimes: number[] = [];
  try {
    for (let warm = 0; warm < 50; warm += 1) {
      await transaction(pack);
      await transaction(bare);
    }
    for (let round = 0; round < rounds; round += 1) {
      for (let run = 0; run < perRound; run += 1) {
        if ((round + run) % 2 === 0) {
          packTimes.push(await transaction(pack));
          bareTimes.push(await transaction(bare));
        } else {
          bareTimes.push(await transaction(bare));
          packTimes.push(await transaction(pack));
        }
      }
    }
  } finally {
    client.release();
    await pool.query(`DROP TABLE IF EXISTS ${table}, ${table}_bare, ${table}_orders`);
    await pool.end();
  }
  const packMedianMs = median(packTimes);
  const bareMedianMs = median(bareTimes);
  return { packMedianMs, bareMedianMs, ratio: packMedianMs / bareMedianMs };
}
