import type { Logger } from '@corekit/abstractions';
import type { EventDispatcher, EventMessage } from '@corekit/eventing';
import type { Writable } from 'node:stream';
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
    const [error] = await this.dispatchMany([message]);
    if (error) throw error;
  }

  /**
   * Publishes the batch on the one confirm channel, then waits once for the broker's confirms of all of it
   * (bounded by `ConfirmTimeoutMilliseconds` for the batch). Answers, in order, null for each acked message
   * and an error for each nacked or unconfirmed one; a lost channel fails every message not yet confirmed.
   */
  async dispatchMany(messages: readonly EventMessage[]): Promise<(Error | null)[]> {
    const channel = await this.channel();
    const outcomes: (Error | null | undefined)[] = messages.map(() => undefined);
    await new Promise<void>((resolve) => {
      let pending = messages.length;
      let nacked = 0;
      const settle = (index: number, error: Error | null) => {
        if (outcomes[index] !== undefined) return;
        outcomes[index] = error;
        pending -= 1;
        if (pending === 0) finish();
      };
      const timer = setTimeout(() => {
        const error = new Error(`no broker confirm within ${this.options.ConfirmTimeoutMilliseconds} ms`);
        outcomes.forEach((outcome, index) => outcome === undefined && settle(index, error));
      }, this.options.ConfirmTimeoutMilliseconds);
      timer.unref?.();
      const finish = () => {
        clearTimeout(timer);
        if (nacked > 0) {
          this.logger.log({
            level: 'warn',
            eventId: eventIds.confirmFailed,
            category: 'eventing.rabbitmq',
            message: `The broker refused ${nacked} of ${messages.length} message(s) (nack)`,
          });
        }
        resolve();
      };
      if (pending === 0) return finish();
      this.corkBatch();
      for (let index = 0; index < messages.length; index += 1) {
        try {
          this.publish(channel, messages[index]!, (error: unknown) => {
            if (error) nacked += 1;
            settle(index, error ? new Error('the broker refused the message (nack)') : null);
          });
        } catch (caught) {
          // The channel is gone: this message and every later one fail; earlier ones still get confirms
          // (or a channel-closed nack from amqplib).
          this.reset();
          const error = caught instanceof Error ? caught : new Error(String(caught));
          for (let rest = index; rest < messages.length; rest += 1) settle(rest, error);
          break;
        }
      }
    });
    return outcomes.map((outcome) => outcome ?? null);
  }

  /**
   * Holds the socket's writes until amqplib has written the whole batch (it writes queued frames from a
   * setImmediate callback), so the batch leaves in one writev system call instead of one write per message.
   * Reaches into amqplib's connection for its socket; does nothing when it is not there.
   */
  private corkBatch(): void {
    const socket = (this.connection as unknown as { connection?: { stream?: Partial<Writable> } } | null)
      ?.connection?.stream;
    if (typeof socket?.cork !== 'function' || typeof socket.uncork !== 'function') return;
    socket.cork();
    // amqplib's own setImmediate is queued after this one; the nested one runs on the next loop turn.
    setImmediate(() => setImmediate(() => socket.uncork!()));
  }

  private publish(channel: ConfirmChannel, message: EventMessage, confirmed: (error: unknown) => void) {
    const body = Buffer.from(
      typeof message.payload === 'string' ? message.payload : JSON.stringify(message.payload),
      'utf8',
    );
    const routingKey = this.options.RoutingKey.replaceAll('{channelId}', message.channelId).replaceAll(
      '{eventType}',
      message.eventType,
    );
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
      confirmed,
    );
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
      // A channel the broker closed (a missing exchange, say) leaves the connection open: close it too.
      void connection.close().catch(() => undefined);
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
