import { randomUUID } from 'node:crypto';
import type { Logger } from '@corekit/abstractions';
import type { EventDispatcher, EventMessage } from '@corekit/eventing';
import mqtt, { type MqttClient } from 'mqtt';
import type { MqttDispatcherOptions } from './mqtt-dispatcher-options';

/** Event ids of the broker dispatchers, inside the eventing range. */
const eventIds = { connected: 3236, connectionFailed: 3237, publishFailed: 3238, closed: 3239 } as const;

/** The JSON body of every MQTT message: the publication with its id, so consumers can deduplicate. */
export interface MqttEventEnvelope {
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
 * Publishes outbox messages at QoS 1: `dispatch` resolves only on the broker's PUBACK. A lost connection, a
 * refused publish or a PUBACK timeout throws (the outbox schedules a retry) and the next dispatch reconnects;
 * the client never queues offline (reconnects are the outbox's retries, so nothing waits unseen in memory).
 */
export class MqttDispatcher implements EventDispatcher {
  readonly id = 'mqtt';
  readonly executionOwnership = 'provider-managed';
  private connecting: Promise<MqttClient> | null = null;
  private current: MqttClient | null = null;
  private closed = false;

  constructor(
    private readonly options: MqttDispatcherOptions,
    private readonly logger: Logger,
  ) {}

  async dispatch(message: EventMessage): Promise<void> {
    const client = await this.client();
    const topic = this.options.Topic.replaceAll('{channelId}', message.channelId).replaceAll(
      '{eventType}',
      message.eventType,
    );
    const envelope: MqttEventEnvelope = {
      publicationId: message.publicationId,
      channelId: message.channelId,
      eventType: message.eventType,
      occurredAtUtc: message.occurredAtUtc,
      contentType: message.contentType,
      correlationId: message.correlationId,
      headers: message.headers,
      payload: message.payload,
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.drop(client);
        reject(new Error(`no PUBACK within ${this.options.PublishTimeoutMilliseconds} ms`));
      }, this.options.PublishTimeoutMilliseconds);
      timer.unref?.();
    });
    try {
      await Promise.race([
        client.publishAsync(topic, JSON.stringify(envelope), {
          qos: 1,
          retain: this.options.Retain,
          ...(this.options.ProtocolVersion === 5
            ? {
                properties: {
                  contentType: 'application/json',
                  userProperties: { publicationId: message.publicationId, eventType: message.eventType },
                  ...(message.correlationId ? { correlationData: Buffer.from(message.correlationId) } : {}),
                },
              }
            : {}),
        }),
        timeout,
      ]);
    } catch (error) {
      this.logger.log({
        level: 'warn',
        eventId: eventIds.publishFailed,
        category: 'eventing.mqtt',
        message: 'An MQTT publish was not acknowledged; the dispatch is retried',
      });
      throw error instanceof Error ? error : new Error(String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.connecting;
    this.connecting = null;
    const client = await pending?.catch(() => null);
    await client?.endAsync(true).catch(() => undefined);
  }

  private client(): Promise<MqttClient> {
    if (this.closed) return Promise.reject(new Error('the MQTT dispatcher is closed'));
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = null;
      this.logger.log({
        level: 'warn',
        eventId: eventIds.connectionFailed,
        category: 'eventing.mqtt',
        message: 'Cannot reach the MQTT broker; the dispatch is retried',
        error: error instanceof Error ? error.message.slice(0, 200) : String(error),
      });
      throw new Error(`MQTT broker unreachable: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.connecting;
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
    this.current = client;
    client.on('error', () => undefined);
    client.on('close', () => {
      if (this.drop(client)) {
        this.logger.log({
          level: 'warn',
          eventId: eventIds.closed,
          category: 'eventing.mqtt',
          message: 'The MQTT connection closed; the next dispatch reconnects',
        });
      }
    });
    this.logger.log({
      level: 'info',
      eventId: eventIds.connected,
      category: 'eventing.mqtt',
      message: 'Connected to the MQTT broker',
    });
    return client;
  }

  /** Forgets `client` when it is the current one (closing it); true when it was. */
  private drop(client: MqttClient): boolean {
    if (this.current !== client) return false;
    this.current = null;
    this.connecting = null;
    client.end(true);
    return true;
  }
}
