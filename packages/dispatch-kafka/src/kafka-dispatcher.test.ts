import net from 'node:net';
import type { KeyedStore } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addEventing, declareEventing, KeyedOutboxStore, useOutboxStore } from '@corekit/eventing';
import { expectBrokerDispatchReadiness } from '@corekit/testing/broker-dispatch-readiness';
import { captureTelemetry } from '@corekit/testing/capture-telemetry';
import { startKafkaFakeServer, type KafkaFakeServer } from '@corekit/testing/fakes/kafka/kafka-fake-server';
import {
  expectDeliveredTraceparent,
  expectMessagingTelemetry,
} from '@corekit/testing/semantic-convention-expectations';
import { addKafkaDispatcher } from './add-kafka-dispatcher';
import type { KafkaDispatcherOptionsInput } from './kafka-dispatcher-options';

// The Kafka wire fake of @corekit/testing (Produce v0-v3 with acceptProduce). KAFKA_BOOTSTRAP_SERVERS, when
// set, adds one run against a real broker (topic `orders` must exist there).
const realBrokers = process.env.KAFKA_BOOTSTRAP_SERVERS;
const cleanups: Array<() => Promise<unknown>> = [];

// Every test records into an in-memory OpenTelemetry SDK: the messaging conventions are checked on it.
const telemetry = captureTelemetry();
afterAll(() => telemetry.stop());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function fake(): Promise<KafkaFakeServer> {
  const server = await startKafkaFakeServer({ topics: ['orders'], acceptProduce: true });
  cleanups.push(() => server.close());
  return server;
}

/** A bootstrap address that refuses connections until `open()`, then relays to `target`. */
async function relay(target: KafkaFakeServer) {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    bootstrap: `127.0.0.1:${port}`,
    open: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

async function startEngine(options: KafkaDispatcherOptionsInput, maxAttempts: number) {
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
  const store: KeyedStore<any> = builder.openStore('kafka-test-outbox');
  useOutboxStore(builder, new KeyedOutboxStore(store));
  addKafkaDispatcher(builder, {
    ConnectTimeoutMilliseconds: 1000,
    RequestTimeoutMilliseconds: 2000,
    ...options,
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

describe('Kafka dispatcher', () => {
  it('readiness follows dispatch: the broker gets the message, the in-process executor never runs, the subscription is provider-managed', async () => {
    const broker = await fake();
    const { engine, publish, dispatchState, executed } = await startEngine(
      { Brokers: [broker.bootstrapServers] },
      3,
    );
    await publish('ready-1');
    await until(() => dispatchState()?.outcome === 'succeeded');
    expect(broker.produced.map((record) => record.key?.toString())).toEqual(['ready-1']);
    expect(executed).toEqual([]);
    expectBrokerDispatchReadiness(engine, 'orders-audit', 'kafka');
    // Messaging conventions: the topic is the destination; the trace context travels as a record header
    // (Produce v3 record batches) and in the envelope's headers the value carries.
    const creates = await expectMessagingTelemetry(telemetry, {
      system: 'kafka',
      destination: 'orders',
      messages: 1,
    });
    const record = broker.produced[0]!;
    const header = record.headers.find((candidate) => candidate.key === 'traceparent');
    expectDeliveredTraceparent(creates, 'ready-1', header?.value);
    const envelope = JSON.parse(record.value!.toString());
    expectDeliveredTraceparent(creates, 'ready-1', envelope.headers.traceparent);
  });

  it('produces a staged message with acks all, keyed by publication id, as an envelope', async () => {
    const broker = await fake();
    const { publish, dispatchState } = await startEngine({ Brokers: [broker.bootstrapServers] }, 3);
    await publish('k-1');
    await until(() => dispatchState()?.outcome === 'succeeded');
    expect(broker.produced).toHaveLength(1);
    const [record] = broker.produced;
    expect(record).toMatchObject({ topic: 'orders', partition: 0, offset: 0, acks: -1 });
    expect(record.key?.toString()).toBe('k-1');
    expect(JSON.parse(record.value!.toString())).toMatchObject({
      publicationId: 'k-1',
      eventType: 'order-placed',
      correlationId: 'corr-1',
      payload: { id: 'k-1' },
    });
  });

  it('brokers down: dispatch is retry-scheduled, and produced once they are back', async () => {
    const broker = await fake();
    const link = await relay(broker);
    const { publish, dispatchState } = await startEngine(
      { Brokers: [link.bootstrap], MessageKey: 'channelId' },
      100,
    );
    await publish('k-2');
    const pending = await until(() => dispatchState()?.retryPending === true && dispatchState());
    expect(pending).toMatchObject({
      outcome: 'retry-scheduled',
      error: expect.stringContaining('Kafka unreachable'),
    });
    expect(broker.produced).toEqual([]);
    await link.open();
    await until(() => dispatchState()?.outcome === 'succeeded');
    expect(broker.produced.map((record) => record.key?.toString())).toEqual(['orders']);
    expect(dispatchState()).toMatchObject({ retryPending: false, terminalFailure: false });
  });

  it('brokers down throughout: terminal after MaxAttempts, visible on the dispatch surfaces, message kept', async () => {
    const broker = await fake();
    const link = await relay(broker);
    const { publish, dispatchState, engine, store } = await startEngine({ Brokers: [link.bootstrap] }, 2);
    await publish('k-3');
    await until(() => dispatchState()?.terminalFailure === true);
    expect(dispatchState()).toMatchObject({ attempt: 2, retryScheduledCount: 1, failedCount: 1 });
    expect(engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
      ownership: { executionOwnership: 'provider-managed', dispatcherId: 'kafka' },
      summary: { hasTerminalFailures: true },
    });
    expect((await store.get('message:k-3'))?.value).toMatchObject({ status: 'failed', attempts: 2 });
  });

  // Registered only when KAFKA_BOOTSTRAP_SERVERS is set: the fake covers the same path in CI, with nothing skipped.
  (realBrokers ? it : ((() => undefined) as unknown as typeof it))(
    'produces to a real broker (KAFKA_BOOTSTRAP_SERVERS)',
    async () => {
      const { publish, dispatchState } = await startEngine({ Brokers: realBrokers!.split(',') }, 3);
      await publish(`k-real-${Date.now()}`);
      await until(() => dispatchState()?.outcome === 'succeeded', 3000);
    },
  );
});
