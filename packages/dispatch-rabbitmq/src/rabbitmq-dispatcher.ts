import type { Logger } from '@corekit/abstractions';
import type { EventDispatcher, EventMessage } from '@corekit/eventing';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { RabbitMqDispatcherOptions } from './rabbitmq-dispatcher-options';

/** Event ids of the broker dispatchers, inside the eventing range. */
const eventIds = { connected: 3236, connectionFailed: 3237, confirmFailed: 3238, closed: 3239 } as const;

/**
 * Publishes outbox messages to a RabbitMQ exchange on a confirm channel: `dispatch` resolves only when the
 * broker acknowledged the message, so a message counts as dispatched only once the broker has it. A nack,
 * a confirm timeout or a lost connection throws (the outbox schedules a retry); the next dispatch reconnects.
 * AMQP `messageId` is the publication id: consumers deduplicate on it (delivery is at-least-once).
 */
export class RabbitMqDispatcher implements EventDispatcher {
  readonly id = 'rabbitmq';
  readonly executionOwnership = 'provider-managed';
  private connecting: Promise<ConfirmChannel> | null = null;
  private connection: ChannelModel | null = null;
  private closed = false;

  constructor(
    private readonly options: RabbitMqDispatcherOptions,
    private readonly logger: Logger,
  ) {}

  async dispatch(message: EventMessage): Promise<void> {
    const channel = await this.channel();
    const body = Buffer.from(
      typeof message.payload === 'string' ? message.payload : JSON.stringify(message.payload),
      'utf8',
    );
    const routingKey = this.options.RoutingKey.replaceAll('{channelId}', message.channelId).replaceAll(
      '{eventType}',
      message.eventType,
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no broker confirm within ${this.options.ConfirmTimeoutMilliseconds} ms`));
      }, this.options.ConfirmTimeoutMilliseconds);
      timer.unref?.();
      try {
        channel.publish(
          this.options.Exchange,
          routingKey,
          body,
          {
            messageId: message.publicationId,
            type: message.eventType,
            contentType: message.contentType,
            correlationId: message.correlationId ?? undefined,
            timestamp: Math.floor(Date.parse(message.occurredAtUtc) / 1000),
            persistent: this.options.Persistent,
            headers: { ...message.headers, 'x-channel-id': message.channelId },
          },
          (error: unknown) => {
            clearTimeout(timer);
            if (error) {
              this.logger.log({
                level: 'warn',
                eventId: eventIds.confirmFailed,
                category: 'eventing.rabbitmq',
                message: 'The broker refused a message (nack)',
              });
              reject(new Error('the broker refused the message (nack)'));
            } else resolve();
          },
        );
      } catch (error) {
        clearTimeout(timer);
        this.reset();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.reset();
    await connection?.close().catch(() => undefined);
  }

  private channel(): Promise<ConfirmChannel> {
    if (this.closed) return Promise.reject(new Error('the RabbitMQ dispatcher is closed'));
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = null;
      this.logger.log({
        level: 'warn',
        eventId: eventIds.connectionFailed,
        category: 'eventing.rabbitmq',
        message: 'Cannot reach the RabbitMQ broker; the dispatch is retried',
        error: error instanceof Error ? error.message.slice(0, 200) : String(error),
      });
      throw new Error(`RabbitMQ unreachable: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.connecting;
  }

  private async connect(): Promise<ConfirmChannel> {
    const connection = await amqp.connect(this.options.ConnectionString, {
      timeout: this.options.ConnectTimeoutMilliseconds,
    });
    this.connection = connection;
    const lost = () => {
      if (this.connection !== connection) return;
      this.reset();
      this.logger.log({
        level: 'warn',
        eventId: eventIds.closed,
        category: 'eventing.rabbitmq',
        message: 'The RabbitMQ connection closed; the next dispatch reconnects',
      });
    };
    connection.on('error', () => undefined);
    connection.on('close', lost);
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => undefined);
    channel.on('close', lost);
    if (this.options.DeclareExchange) {
      await channel.assertExchange(this.options.Exchange, this.options.ExchangeType, { durable: true });
    }
    this.logger.log({
      level: 'info',
      eventId: eventIds.connected,
      category: 'eventing.rabbitmq',
      message: `Connected to RabbitMQ; publishing to exchange ${this.options.Exchange}`,
    });
    return channel;
  }

  private reset(): void {
    this.connecting = null;
    this.connection = null;
  }
}
