// (b) Publish-to-confirmed throughput to RabbitMQ: N staged messages dispatched by the eventing dispatch job
// with the RabbitMQ dispatcher (batch size B, passes triggered back to back) against a bare amqplib
// confirm-channel loop publishing the same N messages (same body and AMQP properties) B at a time and awaiting
// each batch's confirms.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import amqp from 'amqplib';
import { createEngineBuilder } from '@corekit/engine-core';
import { addEventing, declareEventing, useEventDispatcher } from '@corekit/eventing';
import { RabbitMqDispatcher, rabbitMqDispatcherOptionsSchema } from '@corekit/dispatch-rabbitmq';
import { addPostgresOutbox } from '@corekit/outbox-postgres';
import pg from 'pg';

const payload = (index: number) => ({ orderId: `o-${index}`, amount: 42, note: 'x'.repeat(200) });

/** `memory`: the engine store outbox; `postgresql`: the PostgreSQL outbox at `postgresUrl`. */
export type OutboxKind = 'memory' | 'postgresql';

/** One timed run: messages per second, and this process's CPU time (user + system) per message in µs. */
export interface DispatchRun {
  readonly rate: number;
  readonly cpuMicrosPerMessage: number;
}

/** Starts timing `count` messages; the returned function stops it. */
export function timer(count: number) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  return (): DispatchRun => {
    const used = process.cpuUsage(cpu);
    return {
      rate: (count / (performance.now() - started)) * 1000,
      cpuMicrosPerMessage: (used.user + used.system) / count,
    };
  };
}

export async function packDispatch(
  url: string,
  exchange: string,
  count: number,
  batch: number,
  outbox: OutboxKind,
  postgresUrl: string,
  postgres: { table?: string; retentionMinutes?: number } = {},
): Promise<DispatchRun> {
  const table = postgres.table ?? `bench_dispatch_${process.pid}`;
  const builder = createEngineBuilder({ environment: {}, logger: { log: () => undefined } });
  builder.addModule({ id: 'orders', version: '1.0.0' });
  declareEventing(builder, { moduleId: 'orders', channels: [{ id: 'orders' }] });
  const { dispatchJob } = addEventing(builder, {
    MaxPublicationStates: 100_000,
    Outbox: {
      Enabled: true,
      BatchSize: batch,
      DispatchIntervalMilliseconds: 3_600_000,
      MaxStagedMessages: 1_000_000,
    },
  });
  // The RabbitMQ dispatcher behind a gate: the startup pass waits until every message is staged, so the
  // timed region is dispatch only (claims, sends, confirms, settlement), pipelined as the job runs it.
  const inner = new RabbitMqDispatcher(
    rabbitMqDispatcherOptionsSchema.parse({ ConnectionString: url, Exchange: exchange }),
    builder.logger,
  );
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  useEventDispatcher(builder, {
    id: inner.id,
    executionOwnership: inner.executionOwnership,
    dispatch: async (message) => {
      await gate;
      await inner.dispatch(message);
    },
    dispatchMany: async (messages) => {
      await gate;
      return inner.dispatchMany(messages);
    },
    close: () => inner.close(),
  });
  if (outbox === 'postgresql') {
    addPostgresOutbox(builder, {
      ConnectionString: postgresUrl,
      TableName: table,
      DispatchedRetentionMinutes: postgres.retentionMinutes ?? 0,
    });
  }
  const engine = builder.build();
  await engine.start();
  try {
    // Connect before the timed region, as the bare loop does (an empty batch opens the channel).
    await inner.dispatchMany([]);
    for (let index = 0; index < count; index += 1) {
      await engine.operations.invoke('eventing.publish', {
        body: { channelId: 'orders', eventType: 'order-placed', payload: payload(index) },
      });
    }
    const stop = timer(count);
    open();
    const succeeded = () =>
      (engine.catalog('event-dispatches')!.find('eventing-outbox') as { succeededCount?: number } | undefined)
        ?.succeededCount ?? 0;
    while (succeeded() < count) {
      const outcome = await dispatchJob!.trigger();
      if (outcome.status === 'already-running') await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return stop();
  } finally {
    await engine.stop();
    if (outbox === 'postgresql') {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP TABLE IF EXISTS ${table}`);
      await client.end();
    }
  }
}

export async function bareDispatch(
  url: string,
  exchange: string,
  count: number,
  batch: number,
): Promise<DispatchRun> {
  const connection = await amqp.connect(url);
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  try {
    const stop = timer(count);
    for (let offset = 0; offset < count; offset += batch) {
      const confirms: Promise<void>[] = [];
      for (let index = offset; index < Math.min(count, offset + batch); index += 1) {
        // The message the dispatcher sends: same body and the same AMQP properties (publication id as
        // messageId, event type, content type, occurrence time, channel header), so both sides do the same job.
        const body = Buffer.from(JSON.stringify(payload(index)));
        const properties = {
          messageId: randomUUID(),
          type: 'order-placed',
          contentType: 'application/json',
          timestamp: Math.floor(Date.now() / 1000),
          persistent: true,
          headers: { 'x-channel-id': 'orders' },
        };
        confirms.push(
          new Promise((resolve, reject) =>
            channel.publish(exchange, 'orders.order-placed', body, properties, (error) =>
              error ? reject(error) : resolve(),
            ),
          ),
        );
      }
      await Promise.all(confirms);
    }
    return stop();
  } finally {
    await channel.deleteExchange(exchange).catch(() => undefined);
    await connection.close();
  }
}
