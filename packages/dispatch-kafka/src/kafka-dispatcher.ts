import type { Logger } from '@corekit/abstractions';
import {
  destinationTemplate,
  dispatcherEventIds,
  eventEnvelope,
  LazyConnection,
  type EventEnvelope,
} from '@corekit/dispatch-kit';
import { traceCarrierOf, type EventDispatcher, type EventMessage } from '@corekit/eventing';
import { Kafka, logLevel, type Message, type Producer, type SASLOptions } from 'kafkajs';
import type { KafkaDispatcherOptions } from './kafka-dispatcher-options';

/** The JSON value of every Kafka message: the publication with its id, so consumers can deduplicate. */
export type KafkaEventEnvelope = EventEnvelope;

/**
 * Produces outbox messages with broker acks (`Acks`, default all in-sync replicas): a message counts as
 * dispatched only once the broker acknowledged the write. A batch goes out as one produce request per
 * broker (kafkajs `sendBatch`), acknowledged or failed as a whole. kafkajs' own retries are off, so a failure
 * surfaces at once and the outbox's retry schedule is the only one (visible on the dispatch surfaces); the
 * next dispatch after a failure reconnects.
 */
export class KafkaDispatcher implements EventDispatcher {
  readonly id = 'kafka';
  readonly executionOwnership = 'provider-managed';
  readonly messagingSystem = 'kafka';
  private readonly producer: LazyConnection<Producer>;
  private readonly topic: (message: EventMessage) => string;

  constructor(
    private readonly options: KafkaDispatcherOptions,
    private readonly logger: Logger,
  ) {
    this.topic = destinationTemplate(options.Topic);
    this.producer = new LazyConnection({
      connect: () => this.connect(),
      dispose: (producer) => producer.disconnect(),
      logger,
      category: 'eventing.kafka',
      broker: 'Kafka',
    });
  }

  /** The topic: `messaging.destination.name`. */
  destinationOf(message: EventMessage): string {
    return this.topic(message);
  }

  async dispatch(message: EventMessage): Promise<void> {
    const [error] = await this.dispatchMany([message]);
    if (error) throw error;
  }

  /** Produces the batch, grouped by topic, in one `sendBatch`; every message shares its outcome. */
  async dispatchMany(messages: readonly EventMessage[]): Promise<(Error | null)[]> {
    if (messages.length === 0) return [];
    const producer = await this.producer.get();
    const byTopic = new Map<string, Message[]>();
    for (const message of messages) {
      const topic = this.topic(message);
      let batch = byTopic.get(topic);
      if (!batch) byTopic.set(topic, (batch = []));
      batch.push(this.record(message));
    }
    try {
      await producer.sendBatch({
        acks: this.options.Acks,
        timeout: this.options.RequestTimeoutMilliseconds,
        topicMessages: [...byTopic].map(([topic, batch]) => ({ topic, messages: batch })),
      });
      return messages.map(() => null);
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      this.logger.log({
        level: 'warn',
        eventId: dispatcherEventIds.deliveryFailed,
        category: 'eventing.kafka',
        message: `A Kafka write of ${messages.length} message(s) was not acknowledged; the dispatch is retried`,
        error: error.message.slice(0, 200),
      });
      this.producer.forget(producer);
      return messages.map(() => error);
    }
  }

  async close(): Promise<void> {
    await this.producer.close();
  }

  private record(message: EventMessage): Message {
    const key =
      this.options.MessageKey === 'channelId'
        ? message.channelId
        : this.options.MessageKey === 'correlationId'
          ? (message.correlationId ?? message.publicationId)
          : message.publicationId;
    return {
      key,
      value: JSON.stringify(eventEnvelope(message)),
      timestamp: String(Date.parse(message.occurredAtUtc)),
      // `traceparent` (W3C): a consumer continues the trace of the message's create span.
      headers: {
        publicationId: message.publicationId,
        eventType: message.eventType,
        ...traceCarrierOf(message),
      },
    };
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
      ...(sasl ? { sasl: this.sasl(sasl) } : {}),
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
    await producer.connect();
    producer.on(producer.events.DISCONNECT, () => this.producer.lost(producer));
    return producer;
  }

  private sasl(sasl: NonNullable<KafkaDispatcherOptions['Sasl']>): SASLOptions {
    const { Username: username, Password: password } = sasl;
    switch (sasl.Mechanism) {
      case 'plain':
        return { mechanism: 'plain', username, password };
      case 'scram-sha-256':
        return { mechanism: 'scram-sha-256', username, password };
      case 'scram-sha-512':
        return { mechanism: 'scram-sha-512', username, password };
    }
  }
}
