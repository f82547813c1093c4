import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/** `Engine:Eventing:Dispatchers:Kafka`: where staged messages go. */
export const kafkaDispatcherOptionsSchema = z.object({
  /** Bootstrap brokers, `host:port` each. Required, at least one. */
  Brokers: z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port')).min(1),
  /** Client id sent to the brokers. Default `corekit-dispatch`. */
  ClientId: z.string().min(1).max(255).default('corekit-dispatch'),
  /** Topic template; `{channelId}` and `{eventType}` are replaced. Default `{channelId}`. */
  Topic: z.string().min(1).max(249).default('{channelId}'),
  /** Acks the producer asks for: -1 (all in-sync replicas) or 1 (leader). Default -1. */
  Acks: z.union([z.literal(-1), z.literal(1)]).default(-1),
  /** Message key: the publication id (spreads load), the channel id or the correlation id (orders per key). */
  MessageKey: z.enum(['publicationId', 'channelId', 'correlationId']).default('publicationId'),
  /** Connect with TLS. Default false. */
  UseTls: z.boolean().default(false),
  /** SASL credentials, when the listener asks for them. */
  Sasl: z
    .object({
      Mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).default('plain'),
      Username: z.string().min(1),
      /** A secret: never logged. */
      Password: secretString('Kafka SASL password'),
    })
    .optional(),
  /** Longest wait for the broker's acknowledgement, in milliseconds. Default 10,000; 1 to 600,000. */
  RequestTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(10_000),
  /** Longest wait to connect, in milliseconds. Default 5000; 1 to 600,000. */
  ConnectTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(5000),
});

export type KafkaDispatcherOptions = z.output<typeof kafkaDispatcherOptionsSchema>;
export type KafkaDispatcherOptionsInput = z.input<typeof kafkaDispatcherOptionsSchema>;
