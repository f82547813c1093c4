// (c) The PostgreSQL lane: the eventing dispatcher on the PostgreSQL outbox (default retention: dispatched rows
// stay in the table) against a bare claim-publish-confirm-update loop on the same table layout, on an empty
// table and on an in-service table that already holds tens of thousands of dispatched rows of another outbox,
// with statistics taken before the run's own rows arrived (autovacuum off on the table, so they stay stale).
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { PostgresOutboxStore } from '@corekit/outbox-postgres';
import pg from 'pg';
import { packDispatch, timer, type DispatchRun } from './dispatch-benchmark';

const payload = (index: number) => ({ orderId: `o-${index}`, amount: 42, note: 'x'.repeat(200) });
const outboxId = 'eventing-outbox';

/** Creates the outbox table (the store's own schema), turns autovacuum off and adds the foreign backlog. */
export async function prepareOutboxTable(postgresUrl: string, table: string, foreignRows: number) {
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  try {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await new PostgresOutboxStore(pool, 'foreign', { tableName: table }).ensureSchema();
    await pool.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    if (foreignRows > 0) {
      await pool.query(
        `INSERT INTO ${table} (outbox_id, id, channel_id, event_type, message, status, settled_at)
         SELECT 'foreign', 'foreign-' || g, 'orders', 'order-placed', $2::jsonb, 'dispatched', clock_timestamp()
           FROM generate_series(1, $1) g`,
        [foreignRows, JSON.stringify({ payload: payload(0) })],
      );
    }
    // Statistics of the table as it is before this run's outbox has a row.
    await pool.query(`ANALYZE ${table}`);
  } finally {
    await pool.end();
  }
}

/**
 * The bare loop: per batch one transaction that selects the first due rows `FOR UPDATE SKIP LOCKED` through the
 * due index, publishes them on a confirm channel (the dispatcher's body and properties), awaits the confirms
 * and marks them dispatched; sessions with `synchronous_commit = off`, as the dispatcher's.
 */
export async function bareClaimLoop(
  url: string,
  postgresUrl: string,
  exchange: string,
  table: string,
  count: number,
  batch: number,
): Promise<DispatchRun> {
  const client = new pg.Client({ connectionString: postgresUrl, options: '-c synchronous_commit=off' });
  await client.connect();
  const connection = await amqp.connect(url);
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  try {
    const staged = Array.from({ length: count }, (_, index) => ({
      publicationId: randomUUID(),
      channelId: 'orders',
      eventType: 'order-placed',
      payload: payload(index),
      occurredAtUtc: new Date().toISOString(),
      contentType: 'application/json',
      correlationId: null,
      tenantId: null,
      headers: {},
      metadata: {},
      actorId: null,
    }));
    await client.query(
      `INSERT INTO ${table} (outbox_id, id, channel_id, event_type, message)
       SELECT $1, m->>'publicationId', 'orders', 'order-placed', m FROM unnest($2::jsonb[]) AS m`,
      [outboxId, staged.map((message) => JSON.stringify(message))],
    );
    const stop = timer(count);
    let sent = 0;
    while (sent < count) {
      await client.query('BEGIN');
      const { rows } = await client.query<{
        id: string;
        message: (typeof staged)[number];
      }>(
        `SELECT id, message FROM ${table}
          WHERE outbox_id = $1 AND status = 'pending' AND available_at <= clock_timestamp()
          ORDER BY available_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [outboxId, batch],
      );
      await Promise.all(
        rows.map(
          ({ message }) =>
            new Promise<void>((resolve, reject) =>
              channel.publish(
                exchange,
                'orders.order-placed',
                Buffer.from(JSON.stringify(message.payload)),
                {
                  messageId: message.publicationId,
                  type: message.eventType,
                  contentType: message.contentType,
                  timestamp: Math.floor(Date.parse(message.occurredAtUtc) / 1000),
                  persistent: true,
                  headers: { 'x-channel-id': message.channelId },
                },
                (error) => (error ? reject(error) : resolve()),
              ),
            ),
        ),
      );
      await client.query(
        `UPDATE ${table} SET status = 'dispatched', settled_at = clock_timestamp()
          WHERE outbox_id = $1 AND id = ANY($2::text[])`,
        [outboxId, rows.map((row) => row.id)],
      );
      await client.query('COMMIT');
      sent += rows.length;
    }
    return stop();
  } finally {
    await channel.deleteExchange(exchange).catch(() => undefined);
    await connection.close();
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.end();
  }
}

/** One interleaved comparison on one table shape; answers the medians. */
export async function postgresLane(options: {
  url: string;
  postgresUrl: string;
  rounds: number;
  count: number;
  batch: number;
  foreignRows: number;
  label: string;
}): Promise<{ pack: number; bare: number; ratio: number; roundRatios: number[] }> {
  const { url, postgresUrl, rounds, count, batch, foreignRows } = options;
  const table = `bench_pg_lane_${process.pid}`;
  const pack: DispatchRun[] = [];
  const bare: DispatchRun[] = [];
  const packRun = async (exchange: string) => {
    await prepareOutboxTable(postgresUrl, table, foreignRows);
    pack.push(
      await packDispatch(url, exchange, count, batch, 'postgresql', postgresUrl, {
        table,
        retentionMinutes: 60,
      }),
    );
  };
  const bareRun = async (exchange: string) => {
    await prepareOutboxTable(postgresUrl, table, foreignRows);
    bare.push(await bareClaimLoop(url, postgresUrl, exchange, table, count, batch));
  };
  for (let round = 0; round < rounds; round += 1) {
    const exchange = `corekit.bench.${process.pid}.lane.${round}`;
    if (round % 2 === 0) {
      await bareRun(`${exchange}.bare`);
      await packRun(`${exchange}.pack`);
    } else {
      await packRun(`${exchange}.pack`);
      await bareRun(`${exchange}.bare`);
    }
    console.log(
      `    ${options.label} round ${round + 1}: pack ${pack.at(-1)!.rate.toFixed(0)} msg/s, bare claim loop ${bare.at(-1)!.rate.toFixed(0)} msg/s, ratio ${(pack.at(-1)!.rate / bare.at(-1)!.rate).toFixed(2)}`,
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const packRate = median(pack.map((run) => run.rate));
  const bareRate = median(bare.map((run) => run.rate));
  return {
    pack: packRate,
    bare: bareRate,
    ratio: packRate / bareRate,
    roundRatios: pack.map((run, index) => run.rate / bare[index]!.rate),
  };
}
