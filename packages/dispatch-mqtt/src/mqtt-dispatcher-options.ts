import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/** `Engine:Eventing:Dispatchers:Mqtt`: where staged messages go. */
export const mqttDispatcherOptionsSchema = z.object({
  /** `mqtt://host:1883` or `mqtts://host:8883`. Required. */
  Url: z.string().regex(/^(mqtt|mqtts|ws|wss):\/\//, 'must start with mqtt://, mqtts://, ws:// or wss://'),
  /** Username, when the broker asks for one. */
  Username: z.string().min(1).optional(),
  /** Password. A secret: never logged. */
  Password: secretString('MQTT password').optional(),
  /** Client id; default `corekit-dispatch-<random>` (one per process: two clients with one id evict each other). */
  ClientId: z.string().min(1).max(128).optional(),
  /** Topic template; `{channelId}` and `{eventType}` are replaced. Default `corekit/events/{channelId}/{eventType}`. */
  Topic: z.string().min(1).max(1024).default('corekit/events/{channelId}/{eventType}'),
  /** MQTT protocol version: 4 (3.1.1) or 5 (adds user properties). Default 4. */
  ProtocolVersion: z.union([z.literal(4), z.literal(5)]).default(4),
  /** Ask the broker to retain the last message per topic. Default false. */
  Retain: z.boolean().default(false),
  /** Longest wait for the PUBACKs of one batch, in milliseconds. Default 10,000; 1 to 600,000. */
  PublishTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(10_000),
  /** Longest wait to connect, in milliseconds. Default 5000; 1 to 600,000. */
  ConnectTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(5000),
  /** Keep-alive interval, in seconds. Default 30; 0 to 65,535. */
  KeepAliveSeconds: z.number().int().min(0).max(65_535).default(30),
});

export type MqttDispatcherOptions = z.output<typeof mqttDispatcherOptionsSchema>;
export type MqttDispatcherOptionsInput = z.input<typeof mqttDispatcherOptionsSchema>;
