import { randomUUID } from 'node:crypto';
import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
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
import { addMqttDispatcher } from './add-mqtt-dispatcher';
import type { MqttEventEnvelope } from './mqtt-dispatcher';

// Real broker: Mosquitto at MQTT_URL (default mqtt://127.0.0.1:1883). "Broker down" is a local TCP relay to
// it that the test opens and closes.
const mqttUrl = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
let available = false;
const cleanups: Array<() => Promise<unknown>> = [];

// Every test records into an in-memory OpenTelemetry SDK: the messaging conventions are checked on it.
const telemetry = captureTelemetry();
afterAll(() => telemetry.stop());

beforeAll(async () => {
  available = await requireService('MQTT broker', mqttUrl.replace(/^mqtts?:/, 'http:'), 'MQTT_URL');
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function relay() {
  const target = new URL(mqttUrl);
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port || 1883), target.hostname);
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
    url: `mqtt://127.0.0.1:${port}`,
    open: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

async function subscriber(prefix: string, protocolVersion: 4 | 5 = 4) {
  const client: MqttClient = await mqtt.connectAsync(mqttUrl, {
    clientId: `sub-${randomUUID().slice(0, 8)}`,
    protocolVersion,
  });
  const received: Array<{
    topic: string;
    envelope: MqttEventEnvelope;
    userProperties?: Record<string, string | string[]>;
  }> = [];
  client.on('message', (topic, payload, packet) =>
    received.push({
      topic,
      envelope: JSON.parse(payload.toString()),
      userProperties: packet.properties?.userProperties,
    }),
  );
  await client.subscribeAsync(`${prefix}/#`, { qos: 1 });
  cleanups.push(() => client.endAsync(true));
  return received;
}

async function startEngine(url: string, prefix: string, maxAttempts: number, protocolVersion: 4 | 5 = 4) {
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
  const store: KeyedStore<any> = builder.openStore('mqtt-test-outbox');
  useOutboxStore(builder, new KeyedOutboxStore(store));
  addMqttDispatcher(builder, {
    Url: url,
    Topic: `${prefix}/{channelId}/{eventType}`,
    ConnectTimeoutMilliseconds: 2000,
    PublishTimeoutMilliseconds: 2000,
    ...(protocolVersion === 5 ? { ProtocolVersion: 5 } : {}),
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

describe('MQTT dispatcher', () => {
  it('readiness follows dispatch: the broker gets the message, the in-process executor never runs, the subscription is provider-managed', async () => {
    if (!available) return;
    const prefix = `corekit-test/${randomUUID().slice(0, 8)}`;
    const received = await subscriber(prefix);
    const { engine, publish, dispatchState, executed } = await startEngine(mqttUrl, prefix, 3);
    await publish('ready-1');
    await until(() => dispatchState()?.outcome === 'succeeded');
    const delivered = await until(() => received[0]);
    expect(delivered.envelope.publicationId).toBe('ready-1');
    expect(executed).toEqual([]);
    expectBrokerDispatchReadiness(engine, 'orders-audit', 'mqtt');
    // Messaging conventions: the topic is the destination; MQTT 3.1.1 carries the trace in the envelope.
    const creates = await expectMessagingTelemetry(telemetry, {
      system: 'mqtt',
      destination: delivered.topic,
      messages: 1,
    });
    expect(delivered.topic).toBe(`${prefix}/orders/order-placed`);
    expectDeliveredTraceparent(creates, 'ready-1', delivered.envelope.headers.traceparent);
  });

  it('over MQTT 5 the create span travels as the traceparent user property', async () => {
    if (!available) return;
    const prefix = `corekit-test/${randomUUID().slice(0, 8)}`;
    const received = await subscriber(prefix, 5);
    const { publish, dispatchState } = await startEngine(mqttUrl, prefix, 3, 5);
    await publish('v5-1');
    await until(() => dispatchState()?.outcome === 'succeeded');
    const delivered = await until(() => received[0]);
    const creates = await expectMessagingTelemetry(telemetry, {
      system: 'mqtt',
      destination: `${prefix}/orders/order-placed`,
      messages: 1,
    });
    expectDeliveredTraceparent(creates, 'v5-1', delivered.userProperties?.traceparent);
  });

  it('publishes a staged message at QoS 1 as an envelope carrying the publication id', async () => {
    if (!available) return;
    const prefix = `corekit-test/${randomUUID().slice(0, 8)}`;
    const received = await subscriber(prefix);
    const { publish, dispatchState } = await startEngine(mqttUrl, prefix, 3);
    await publish('m-1');
    await until(() => dispatchState()?.outcome === 'succeeded');
    const message = await until(() => received[0]);
    expect(message.topic).toBe(`${prefix}/orders/order-placed`);
    expect(message.envelope).toMatchObject({
      publicationId: 'm-1',
      channelId: 'orders',
      eventType: 'order-placed',
      correlationId: 'corr-1',
      payload: { id: 'm-1' },
    });
  });

  it('broker down: dispatch is retry-scheduled, and delivered once the broker is back', async () => {
    if (!available) return;
    const prefix = `corekit-test/${randomUUID().slice(0, 8)}`;
    const received = await subscriber(prefix);
    const link = await relay();
    const { publish, dispatchState } = await startEngine(link.url, prefix, 100);
    await publish('m-2');
    const pending = await until(() => dispatchState()?.retryPending === true && dispatchState());
    expect(pending).toMatchObject({
      outcome: 'retry-scheduled',
      error: expect.stringContaining('MQTT broker unreachable'),
    });
    await link.open();
    await until(() => dispatchState()?.outcome === 'succeeded');
    expect((await until(() => received[0])).envelope.publicationId).toBe('m-2');
    expect(dispatchState()).toMatchObject({ retryPending: false, terminalFailure: false });
  });

  it('broker down throughout: terminal after MaxAttempts, visible on the dispatch surfaces, message kept', async () => {
    if (!available) return;
    const link = await relay();
    const { publish, dispatchState, engine, store } = await startEngine(link.url, 'corekit-test/never', 2);
    await publish('m-3');
    await until(() => dispatchState()?.terminalFailure === true);
    expect(dispatchState()).toMatchObject({ attempt: 2, retryScheduledCount: 1, failedCount: 1 });
    expect(engine.catalog('event-dispatch-runtimes')!.find('eventing-dispatch')).toMatchObject({
      ownership: { executionOwnership: 'provider-managed', dispatcherId: 'mqtt' },
      summary: { hasTerminalFailures: true },
    });
    expect((await store.get('message:m-3'))?.value).toMatchObject({ status: 'failed', attempts: 2 });
  });
});
