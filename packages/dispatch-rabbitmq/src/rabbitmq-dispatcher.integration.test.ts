import { randomUUID } from 'node:crypto';
import net from 'node:net';
import amqp, { type ChannelModel } from 'amqplib';
import type { KeyedStore } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addEventing, declareEventing, KeyedOutboxStore, useOutboxStore } from '@corekit/eventing';
import { expectBrokerDispatchReadiness } from '@corekit/testing/broker-dispatch-readiness';
import { captureTelemetry } from '@corekit/testing/capture-telemetry';
import { requireService } from '@corekit/testing/require-service';
import {
  expectDeliveredTraceparent,
  expectMessagingTelemetry,
} from '@corekit/testing/semantic-convention-expectations';
import { addRabbitMqDispatcher } from './add-rabbitmq-dispatcher';
import { RabbitMqDispatcher } from './rabbitmq-dispatcher';
import { rabbitMqDispatcherOptionsSchema } from './rabbitmq-dispatcher-options';

// Real broker: RabbitMQ at RABBITMQ_URL (default amqp://guest:guest@127.0.0.1:5672). "Broker down" is a local
// TCP relay to it that the test opens and closes.
const rabbitUrl = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
let available = false;
let admin: ChannelModel;
const cleanups: Array<() => Promise<unknown>> = [];

// Every test records into an in-memory OpenTelemetry SDK: the messaging conventions are checked on it.
const telemetry = captureTelemetry();
afterAll(() => telemetry.stop());

beforeAll(async () => {
  available = await requireService('RabbitMQ', rabbitUrl.replace(/^amqps?:/, 'http:'), 'RABBITMQ_URL');
  if (available) admin = await amqp.connect(rabbitUrl);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});
afterAll(async () => {
  if (available) await admin.close();
});

/** A relay port that refuses connections until `open()`; then forwards to the broker. */
async function relay() {
  const target = new URL(rabbitUrl);
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port || 5672), target.hostname);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(rabbitUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    open: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

async function consumer(exchange: string) {
  const channel = await admin.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, '#');
  const received: amqp.ConsumeMessage[] = [];
  await channel.consume(queue, (message) => message && received.push(message), { noAck: true });
  cleanups.push(async () => {
    await channel.deleteExchange(exchange);
    await channel.close();
  });
  return received;
}

async function startEngine(connectionString: string, exchange: string, maxAttempts: number) {
  const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
  builder.addModule({ id: 'orders', version: '1.0.0' });
  // An in-process executor: with a broker dispatcher installed it must never run (only the broker receives).
  const executed: string[] = [];
  declareEventing(builder, {
    moduleId: 'orders',
    channels: [{ id: 'orders' }],
    subscriptions: [
      {
        id: 'orders-audit',
        channelId: 'orders',
        execute: ({ message }) => void executed.push(message.publicationId),
      },
    ],
  });
  addEventing(builder, {
    Outbox: {
      Enabled: true,
      DispatchIntervalMilliseconds: 20,
      RetryDelayMilliseconds: 50,
      MaxAttempts: maxAttempts,
    },
  });
  const store: KeyedStore<any> = builder.openStore('rabbit-test-outbox');
  useOutboxStore(builder, new KeyedOutboxStore(store));
  addRabbitMqDispatcher(builder, {
    ConnectionString: connectionString,
    Exchange: exchange,
    ConnectTimeoutMilliseconds: 2000,
  });
  const engine = builder.build();
  await engine.start();
  cleanups.push(() => engine.stop());
  const publish = (id: string) =>
    engine.operations.invoke('eventing.publish', {
      body: { id, channelId: 'orders', eventType: 'order-placed', payload: { id }, correlationId: 'corr-1' },
    });
  const dispatchState = () =>
    engine.catalog('event-dispatches')!.find('eventing-outbox') as Record<string, any> | undefined;
  return { engine, store, publish, dispatchState, executed };
}

async function until<T>(read: () => T | undefined | false, attempts = 1500): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const value = read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

describe('RabbitMQ dispatcher', () => {
  it('readiness follows dispatch: the broker gets the message, the in-process executor never runs, the subscription is provider-managed', async () => {
    if (!available) return;
    const exchange = `corekit.test.${randomUUID().slice(0, 8)}`;
    const received = await consumer(exchange);
    const { engine, publish, dispatchState, executed } = await startEngine(rabbitUrl, exchange, 3);
    await publish('ready-1');
    await until(() => dispatchState()?.outcome === 'succeeded');
    const delivered = await until(() => received[0]);
    expect(delivered.properties.messageId).toBe('ready-1');
    expect(executed).toEqual([]);
    expectBrokerDispatchReadiness(engine, 'orders-audit', 'rabbitmq');
    // Messaging conventions: `{exchange}:{routing key}`, and the AMQP headers carry the create span's context.
    const creates = await expectMessagingTelemetry(telemetry, {
      system: 'rabbitmq',
      destination: `${exchange}:orders.order-placed`,
      messages: 1,
    });
    expectDeliveredTraceparent(creates, 'ready-1', delivered.properties.headers?.traceparent);
  });

  it('publishes a staged message on a confirm channel with the publication id as messageId', async () => {
    if (!available) return;
    const exchange = `corekit.test.${randomUUID().slice(0, 8)}`;
    const received = await consumer(exchange);
    const { publish, dispatchState } = await startEngine(rabbitUrl, exchange, 3);
    await publish('r-1');
    await until(() => dispatchState()?.outcome === 'succeeded');
    const message = await until(() => received[0]);
    expect(message.fields.routingKey).toBe('orders.order-placed');
    expect(message.properties).toMatchObject({
      messageId: 'r-1',
      type: 'order-placed',
      correlationId: 'corr-1',
    });
    expect(JSON.parse(message.content.toString())).toEqual({ id: 'r-1' });
  });

  it('dispatches a backlog in batches: every message once, in staging order', async () => {
    if (!available) return;
    const exchange = `corekit.test.${randomUUID().slice(0, 8)}`;
    const received = await consumer(exchange);
    const { publish, dispatchState } = await startEngine(rabbitUrl, exchange, 3);
    const ids = Array.from({ length: 120 }, (_, index) => `batch-${String(index).padStart(3, '0')}`);
    for (const id of ids) await publish(id);
    await until(() => dispatchState()?.succeededCount === ids.length);
    await until(() => received.length >= ids.length);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.map((message) => message.properties.messageId)).toEqual(ids);
  });

  it('dispatchMany answers an error for every message the broker did not confirm', async () => {
    if (!available) return;
    const logger = createMemoryLogger();
    const dispatcher = new RabbitMqDispatcher(
      rabbitMqDispatcherOptionsSchema.parse({
        ConnectionString: rabbitUrl,
        Exchange: `corekit.missing.${randomUUID().slice(0, 8)}`,
        DeclareExchange: false,
        ConfirmTimeoutMilliseconds: 3000,
      }),
      logger,
    );
    cleanups.push(() => dispatcher.close());
    const message = (id: string) => ({
      publicationId: id,
      channelId: 'orders',
      eventType: 'order-placed',
      payload: { id },
      contentType: 'application/json',
      correlationId: null,
      tenantId: null,
      metadata: {},
      actorId: null,
      occurredAtUtc: new Date().toISOString(),
      headers: {},
    });
    // Publishing to a missing exchange closes the channel: no message of the batch is confirmed.
    const outcomes = await dispatcher.dispatchMany([message('x-1'), message('x-2'), message('x-3')]);
    expect(outcomes).toHaveLength(3);
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(Error);
  });

  it('broker down: dispatch is retry-scheduled, and delivered once the broker is back', async () => {
    if (!available) return;
    const exchange = `corekit.test.${randomUUID().slice(0, 8)}`;
    const received = await consumer(exchange);
    const link = await relay();
    const { publish, dispatchState, engine } = await startEngine(link.url, exchange, 100);
    await publish('r-2');
    const pending = await until(() => dispatchState()?.retryPending === true && dispatchState());
    expect(pending).toMatchObject({
      outcome: 'retry-scheduled',
      error: expect.stringContaining('RabbitMQ unreachable'),
    });
    await link.open();
    await until(() => dispatchState()?.outcome === 'succeeded');
    expect((await until(() => received[0])).properties.messageId).toBe('r-2');
    expect(dispatchState()).toMatchObject({ retryPending: false, terminalFailure: false });
    expect(dispatchState()!.retryScheduledCount).toBeGreaterThan(0);
    expect(
      engine
        .runtimeStory()
        .timeline.filter((entry) => entry.kind === 'eventing.dispatch')
        .map((entry) => entry.transition),
    ).toEqual(['retry-pending', 'retry-cleared']);
  });

  it('broker down throughout: terminal after MaxAttempts, visible on the dispatch surfaces, message kept', async () => {
    if (!available) return;
    const exchange = `corekit.test.${randomUUID().slice(0, 8)}`;
    const link = await relay();
    const { publish, dispatchState, engine, store } = await startEngine(link.url, exchange, 3);
    await publish('r-3');
    await until(() => dispatchState()?.terminalFailure === true);
    expect(dispatchState()).toMatchObject({
      attempt: 3,
      retryScheduledCount: 2,
      failedCount: 1,
      terminalFailureCount: 1,
    });
    expect(engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
      ownership: { executionOwnership: 'provider-managed', dispatcherId: 'rabbitmq' },
      summary: { terminalOutboxCount: 1, hasTerminalFailures: true },
    });
    const kept = await store.get('message:r-3');
    expect(kept?.value).toMatchObject({ status: 'failed', attempts: 3, message: { publicationId: 'r-3' } });
  });
});
