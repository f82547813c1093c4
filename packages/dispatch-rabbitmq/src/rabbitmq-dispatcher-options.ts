import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/** `Engine:Eventing:Dispatchers:RabbitMq`: where staged messages go. */
export const rabbitMqDispatcherOptionsSchema = z.object({
  /** `amqp://user:password@host:5672/vhost` (or amqps://). Required. A secret: never logged. */
  ConnectionString: secretString('AMQP connection string of the broker'),
  /** Exchange messages are published to. Default `corekit.events`. */
  Exchange: z.string().min(1).max(255).default('corekit.events'),
  /** Type used when the exchange is declared. Default `topic`. */
  ExchangeType: z.enum(['topic', 'direct', 'fanout', 'headers']).default('topic'),
  /** Declare the exchange (durable) on connect. Default true; false expects it to exist. */
  DeclareExchange: z.boolean().default(true),
  /** Routing key; `{channelId}` and `{eventType}` are replaced. Default `{channelId}.{eventType}`. */
  RoutingKey: z.string().min(1).max(255).default('{channelId}.{eventType}'),
  /** Mark messages persistent (delivery mode 2). Default true. */
  Persistent: z.boolean().default(true),
  /** Longest wait for the broker's confirms of one batch, in milliseconds. Default 10,000; 1 to 600,000. */
  ConfirmTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(10_000),
  /** Longest wait to connect, in milliseconds. Default 5000; 1 to 600,000. */
  ConnectTimeoutMilliseconds: z.number().int().min(1).max(600_000).default(5000),
});

export type RabbitMqDispatcherOptions = z.output<typeof rabbitMqDispatcherOptionsSchema>;
export type RabbitMqDispatcherOptionsInput = z.input<typeof rabbitMqDispatcherOptionsSchema>;
