import type { Logger } from '@corekit/abstractions';
import type { EventDispatcher, EventMessage } from '@corekit/eventing';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import type { KafkaDispatcherOptions } from './kafka-dispatcher-options';

/** Event ids of the broker dispatchers, inside the eventing range. */
const eventIds = { connected: 3236, connectionFailed: 3237, sendFailed: 3238, closed: 3239 } as const;

/** The JSON value of every Kafka message: the publication with its id, so consumers can deduplicate. */
export interface KafkaEventEnvelope {
  readonly publicationId: string;
  readonly channelId: string;
  readonly eventType: string;
  readonly occurredAtUtc: string;
  readonly contentType: string;
  readonly correlationId: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: unknown;
}

/**
 * Produces outbox messages with broker acks (`Acks`, default all in-sync replicas): `dispatch` resolves only
 * once the broker acknowledged the write. kafkajs' own retries are off, so a failure surfaces at once and
 * the outbox's retry schedule is the only one (visible on the dispatch surfaces); the next dispatch after a
 * failure reconnects.
 */
export class KafkaDispatcher implements EventDispatcher {
  readonly id = 'kafka';
  readonly executionOwnership = 'provider-managed';
  private connecting: Promise<Producer> | null = null;
  private closed = false;

  constructor(
    private readonly options: KafkaDispatcherOptions,
    private readonly logger: Logger,
  ) {}

  async dispatch(message: EventMessage): Promise<void> {
    const producer = await this.producer();
    const topic = this.options.Topic.replaceAll('{channelId}', message.channelId).replaceAll(
      '{eventType}',
      message.eventType,
    );
    const envelope: KafkaEventEnvelope = {
      publicationId: message.publicationId,
      channelId: message.channelId,
      eventType: message.eventType,
      occurredAtUtc: message.occurredAtUtc,
      contentType: message.contentType,
      correlationId: message.correlationId,
      headers: message.headers,
      payload: message.payload,
    };
    const key =
      this.options.MessageKey === 'channelId'
        ? message.channelId
        : this.options.MessageKey === 'correlationId'
          ? (message.correlationId ?? message.publicationId)
          : message.publicationId;
    try {
      await producer.send({
        topic,
        acks: this.options.Acks,
        timeout: this.options.RequestTimeoutMilliseconds,
        messages: [
          {
            key,
            value: JSON.stringify(envelope),
            timestamp: String(Date.parse(message.occurredAtUtc)),
            headers: { publicationId: message.publicationId, eventType: message.eventType },
          },
        ],
      });
    } catch (error) {
      this.logger.log({
        level: 'warn',
        eventId: eventIds.sendFailed,
        category: 'eventing.kafka',
        message: 'A Kafka write was not acknowledged; the dispatch is retried',
        error: error instanceof Error ? error.message.slice(0, 200) : String(error),
      });
      await this.reset();
      throw error instanceof Error ? error : new Error(String(error));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reset();
  }

  private producer(): Promise<Producer> {
    if (this.closed) return Promise.reject(new Error('the Kafka dispatcher is closed'));
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = null;
      this.logger.log({
        level: 'warn',
        eventId: eventIds.connectionFailed,
        category: 'eventing.kafka',
        message: 'Cannot reach the Kafka brokers; the dispatch is retried',
        error: error instanceof Error ? error.message.slice(0, 200) : String(error),
      });
      throw new Error(`Kafka unreachable: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.connecting;
  }

  private async connect(): Promise<Producer> {
    const sasl = this.options.Sasl;
    const kafka = new Kafka({
      clientId: this.options.ClientId,
      brokers: this.options.Brokers,
      ssl: this.options.UseTls,
      connectionTimeout: this.options.ConnectTimeoutMilliseconds,
      requestTimeout: this.options.RequestTimeoutMilliseconds,
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
      ...(sasl
        ? { sasl: { mechanism: sasl.Mechanism, username: sasl.Username, password: sasl.Password } as never }
        : {}),
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
    await producer.connect();
    producer.on(producer.events.DISCONNECT, () => {
      this.logger.log({
        level: 'info',
        eventId: eventIds.closed,
        category: 'eventing.kafka',
        message: 'The Kafka producer disconnected',
      });
    });
    this.logger.log({
      level: 'info',
      eventId: eventIds.connected,
      category: 'eventing.kafka',
      message: 'Connected to Kafka',
    });
    return producer;
  }

  private async reset(): Promise<void> {
    const pending = this.connecting;
    this.connecting = null;
    const producer = await pending?.catch(() => null);
    await producer?.disconnect().catch(() => undefined);
  }
}
