import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { createMemoryLogger } from '@corekit/engine-core';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { requireService } from '@corekit/testing/require-service';
import { dispatcherLifecycleAdapter } from '../../dispatch-kit/src/test-support/dispatcher-lifecycle-adapter';
import { MqttDispatcher, type MqttEventEnvelope } from './mqtt-dispatcher';
import { mqttDispatcherOptionsSchema } from './mqtt-dispatcher-options';

// Real broker: Mosquitto at MQTT_URL. One topic prefix and one QoS 1 subscriber per test.
const mqttUrl = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const subscribers = new Map<string, { client: MqttClient; received: string[] }>();

beforeAll(async () => {
  await requireService('MQTT broker', mqttUrl.replace(/^mqtts?:/, 'http:'), 'MQTT_URL');
});

afterAll(async () => {
  await Promise.all([...subscribers.values()].map(({ client }) => client.endAsync(true)));
});

describePackLifecycleConformance(
  dispatcherLifecycleAdapter({
    name: 'MQTT',
    create: (_builder, prefix) =>
      new MqttDispatcher(
        mqttDispatcherOptionsSchema.parse({
          Url: mqttUrl,
          Topic: `${prefix}/{channelId}/{eventType}`,
          ClientId: `lifecycle-${randomUUID().slice(0, 8)}`,
        }),
        createMemoryLogger(),
      ),
    async prepare(prefix) {
      if (subscribers.has(prefix)) return;
      const client = await mqtt.connectAsync(mqttUrl, { clientId: `sub-${randomUUID().slice(0, 8)}` });
      const entry = { client, received: [] as string[] };
      client.on('message', (_topic, payload) =>
        entry.received.push((JSON.parse(payload.toString()) as MqttEventEnvelope).publicationId),
      );
      await client.subscribeAsync(`${prefix}/#`, { qos: 1 });
      subscribers.set(prefix, entry);
    },
    async received(prefix) {
      const entry = subscribers.get(prefix);
      return entry ? entry.received.splice(0) : [];
    },
  }),
);
