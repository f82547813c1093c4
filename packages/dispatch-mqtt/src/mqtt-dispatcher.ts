import { randomUUID } from 'node:crypto';
import type { Logger } from '@corekit/abstractions';
import {
  confirmBatch,
  destinationTemplate,
  dispatcherEventIds,
  eventEnvelope,
  LazyConnection,
  type EventEnvelope,
} from '@corekit/dispatch-kit';
import { traceCarrierOf, type EventDispatcher, type EventMessage } from '@corekit/eventing';
import mqtt, { type IClientPublishOptions, type MqttClient } from 'mqtt';
import type { MqttDispatcherOptions } from './mqtt-dispatcher-options';

/** The JSON body of every MQTT message: the publication with its id, so consumers can deduplicate. */
export type MqttEventEnvelope = EventEnvelope;

/**
 * Publishes outbox messages at QoS 1: a message counts as dispatched only on the broker's PUBACK. A lost
 * connection, a refused publish or a PUBACK timeout fails the messages not acknowledged (the outbox schedules
 * their retry) and the next dispatch reconnects; the client never queues offline (reconnects are the
 * outbox's retries, so nothing waits unseen in memory).
 */
export class MqttDispatcher implements EventDispatcher {
  readonly id = 'mqtt';
  readonly executionOwnership = 'provider-managed';
  readonly messagingSystem = 'mqtt';
  private readonly client: LazyConnection<MqttClient>;
  private readonly topic: (message: EventMessage) => string;

  constructor(
    private readonly options: MqttDispatcherOptions,
    private readonly logger: Logger,
  ) {
    this.topic = destinationTemplate(options.Topic);
    this.client = new LazyConnection({
      connect: () => this.connect(),
      dispose: (client) => client.endAsync(true),
      logger,
      category: 'eventing.mqtt',
      broker: 'the MQTT broker',
    });
  }

  async dispatch(message: EventMessage): Promise<void> {
    const [error] = await this.dispatchMany([message]);
    if (error) throw error;
  }

  /**
   * Publishes the batch at QoS 1 and waits once for every PUBACK (bounded by `PublishTimeoutMilliseconds`
   * for the batch; on timeout the connection is dropped). Answers, in order, null for each acknowledged
   * message and an error for each other one.
   */
  async dispatchMany(messages: readonly EventMessage[]): Promise<(Error | null)[]> {
    const client = await this.client.get();
    const outcomes = await confirmBatch(messages, {
      send: (message, confirmed) =>
        client.publish(
          this.topic(message),
          JSON.stringify(eventEnvelope(message)),
          this.publishOptions(message),
          (error) => confirmed(error ? (error instanceof Error ? error : new Error(String(error))) : null),
        ),
      timeoutMs: this.options.PublishTimeoutMilliseconds,
      acknowledgement: 'PUBACK',
      onTimeout: () => this.client.forget(client),
      onSendFailure: () => this.client.lost(client),
    });
    const failed = outcomes.filter((outcome) => outcome !== null).length;
    if (failed > 0) {
      this.logger.log({
        level: 'warn',
        eventId: dispatcherEventIds.deliveryFailed,
        category: 'eventing.mqtt',
        message: `${failed} of ${messages.length} MQTT publish(es) were not acknowledged; they are retried`,
      });
    }
    return outcomes;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** The topic: `messaging.destination.name`. */
  destinationOf(message: EventMessage): string {
    return this.topic(message);
  }

  private publishOptions(message: EventMessage): IClientPublishOptions {
    if (this.options.ProtocolVersion !== 5) return { qos: 1, retain: this.options.Retain };
    return {
      qos: 1,
      retain: this.options.Retain,
      properties: {
        contentType: 'application/json',
        // `traceparent` (W3C) as a user property: a consumer continues the trace of the create span.
        userProperties: {
          publicationId: message.publicationId,
          eventType: message.eventType,
          ...traceCarrierOf(message),
        },
        ...(message.correlationId ? { correlationData: Buffer.from(message.correlationId) } : {}),
      },
    };
  }

  private async connect(): Promise<MqttClient> {
    const client = await mqtt.connectAsync(
      this.options.Url,
      {
        clientId: this.options.ClientId ?? `corekit-dispatch-${randomUUID().slice(0, 12)}`,
        username: this.options.Username,
        password: this.options.Password,
        protocolVersion: this.options.ProtocolVersion,
        connectTimeout: this.options.ConnectTimeoutMilliseconds,
        keepalive: this.options.KeepAliveSeconds,
        reconnectPeriod: 0,
        queueQoSZero: false,
        clean: true,
      },
      false,
    );
    client.on('error', () => undefined);
    client.on('close', () => this.client.lost(client));
    return client;
  }
}
