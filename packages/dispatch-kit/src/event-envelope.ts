import type { EventMessage } from '@corekit/eventing';

/**
 * The JSON body a dispatcher sends when its protocol has no message properties of its own (MQTT 3.1.1,
 * Kafka values): the publication with its id, so consumers can deduplicate.
 */
export interface EventEnvelope {
  readonly publicationId: string;
  readonly channelId: string;
  readonly eventType: string;
  readonly occurredAtUtc: string;
  readonly contentType: string;
  readonly correlationId: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: unknown;
}

/** The envelope of `message`. */
export function eventEnvelope(message: EventMessage): EventEnvelope {
  return {
    publicationId: message.publicationId,
    channelId: message.channelId,
    eventType: message.eventType,
    occurredAtUtc: message.occurredAtUtc,
    contentType: message.contentType,
    correlationId: message.correlationId,
    headers: message.headers,
    payload: message.payload,
  };
}

/** The payload as bytes: a string as is (UTF-8), anything else as JSON. */
export function payloadBytes(message: EventMessage): Buffer {
  return Buffer.from(
    typeof message.payload === 'string' ? message.payload : JSON.stringify(message.payload),
    'utf8',
  );
}
