import type { Logger } from '@corekit/abstractions';
import {
  confirmBatch,
  destinationTemplate,
  dispatcherEventIds,
  LazyConnection,
  payloadBytes,
} from '@corekit/dispatch-kit';
import type { EventDispatcher, EventMessage } from '@corekit/eventing';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { RabbitMqDispatcherOptions } from './rabbitmq-dispatcher-options';

/** An open connection and its one confirm channel. */
interface Session {
  readonly connection: ChannelModel;
  readonly channel: ConfirmChannel;
}

/**
 * Publishes outbox messages to a RabbitMQ exchange on a confirm channel: a message counts as dispatched only
 * once the broker acknowledged it. A nack, a confirm timeout or a lost connection fails the messages not
 * acknowledged (the outbox schedules their retry); the next dispatch reconnects.
 * AMQP `messageId` is the publication id: consumers deduplicate on it (delivery is at-least-once).
 */
export class RabbitMqDispatcher implements EventDispatcher {
  readonly id = 'rabbitmq';
  readonly executionOwnership = 'provider-managed';
  readonly messagingSystem = 'rabbitmq';
  private readonly session: LazyConnection<Session>;
  private readonly routingKey: (message: EventMessage) => string;

  constructor(
    private readonly options: RabbitMqDispatcherOptions,
    private readonly logger: Logger,
  ) {
    this.routingKey = destinationTemplate(options.RoutingKey);
    this.session = new LazyConnection({
      connect: () => this.connect(),
      dispose: (session) => session.connection.close(),
      logger,
      category: 'eventing.rabbitmq',
      broker: 'RabbitMQ',
    });
  }

  async dispatch(message: EventMessage): Promise<void> {
    const [error] = await this.dispatchMany([message]);
    if (error) throw error;
  }

  /**
   * Publishes the batch on the one confirm channel, then waits once for the broker's confirms of all of it
   * (bounded by `ConfirmTimeoutMilliseconds` for the batch). Answers, in order, null for each acked message
   * and an error for each nacked or unconfirmed one; a lost channel fails every message not yet confirmed.
   */
  async dispatchMany(messages: readonly EventMessage[]): Promise<(Error | null)[]> {
    const session = await this.session.get();
    let refused = 0;
    const outcomes = await confirmBatch(messages, {
      send: (message, confirmed) =>
        this.publish(session.channel, message, (error: unknown) => {
          if (error) refused += 1;
          confirmed(error ? new Error('the broker refused the message (nack)') : null);
        }),
      timeoutMs: this.options.ConfirmTimeoutMilliseconds,
      acknowledgement: 'broker confirm',
      // The channel is gone: earlier messages still get confirms (or amqplib's channel-closed nacks).
      onSendFailure: () => this.session.lost(session),
    });
    if (refused > 0) {
      this.logger.log({
        level: 'warn',
        eventId: dispatcherEventIds.deliveryFailed,
        category: 'eventing.rabbitmq',
        message: `The broker refused ${refused} of ${messages.length} message(s) (nack)`,
      });
    }
    return outcomes;
  }

  async close(): Promise<void> {
    await this.session.close();
  }

  /**
   * `messaging.destination.name` as the RabbitMQ conventions compose it: `{exchange}:{routing key}`, the
   * exchange or the routing key alone when the other is empty, `amq.default` when both are.
   */
  destinationOf(message: EventMessage): string {
    const exchange = this.options.Exchange;
    const routingKey = this.routingKey(message);
    if (exchange && routingKey) return `${exchange}:${routingKey}`;
    return exchange || routingKey || 'amq.default';
  }

  private publish(channel: ConfirmChannel, message: EventMessage, confirmed: (error: unknown) => void) {
    channel.publish(
      this.options.Exchange,
      this.routingKey(message),
      payloadBytes(message),
      {
        messageId: message.publicationId,
        type: message.eventType,
        contentType: message.contentType,
        correlationId: message.correlationId ?? undefined,
        timestamp: Math.floor(Date.parse(message.occurredAtUtc) / 1000),
        persistent: this.options.Persistent,
        // The message's headers carry `traceparent` (W3C): a consumer continues the create span's trace.
        headers: { ...message.headers, 'x-channel-id': message.channelId },
      },
      confirmed,
    );
  }

  private async connect(): Promise<Session> {
    const connection = await amqp.connect(this.options.ConnectionString, {
      timeout: this.options.ConnectTimeoutMilliseconds,
    });
    try {
      const channel = await connection.createConfirmChannel();
      const session: Session = { connection, channel };
      // A channel the broker closed (a missing exchange, say) leaves the connection open: lost closes both.
      const lost = () => this.session.lost(session);
      connection.on('error', () => undefined);
      connection.on('close', lost);
      channel.on('error', () => undefined);
      channel.on('close', lost);
      if (this.options.DeclareExchange) {
        await channel.assertExchange(this.options.Exchange, this.options.ExchangeType, { durable: true });
      }
      return session;
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }
}
