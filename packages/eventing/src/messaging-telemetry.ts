import {
  errorTypeOf,
  messagingDurationBuckets,
  type PackCounter,
  type PackHistogram,
  type PackTelemetry,
  type PackTracer,
  type TraceCarrier,
} from '@corekit/abstractions';
import type { EventMessage } from './eventing-model';

/** Where a message goes, as the messaging semantic conventions name it. */
export interface MessagingDestination {
  /** `messaging.system`: `rabbitmq`, `kafka`, `mqtt`; `corekit` for this process's subscriptions. */
  readonly system: string;
  /** `messaging.destination.name`: the exchange and routing key, the topic, the channel. */
  readonly destination: string;
}

/** What describes a dispatcher's destinations (an `EventDispatcher` with `messagingSystem`, `destinationOf`). */
export interface MessagingDescription {
  readonly id: string;
  readonly messagingSystem?: string;
  destinationOf?(message: EventMessage): string;
}

/** The destination of `message` on `dispatcher`: its own description, else its id and the channel. */
export function destinationOn(dispatcher: MessagingDescription, message: EventMessage): MessagingDestination {
  return {
    system: dispatcher.messagingSystem ?? dispatcher.id,
    destination: dispatcher.destinationOf?.(message) ?? message.channelId,
  };
}

/** The W3C trace-context fields a message carries in its headers (from its create span). */
export function traceCarrierOf(message: EventMessage): TraceCarrier {
  const fields: Record<string, string> = {};
  if (message.headers.traceparent) fields.traceparent = message.headers.traceparent;
  if (message.headers.tracestate) fields.tracestate = message.headers.tracestate;
  return fields;
}

const seconds = (startedAt: number) => (performance.now() - startedAt) / 1000;

/**
 * The eventing pack's messaging telemetry, named per the OpenTelemetry messaging semantic conventions: a
 * PRODUCER `create {destination}` span per publication staged for a later send, whose W3C context the message
 * carries in its headers (`traceparent`; a message delivered within its request carries the request's), a CLIENT `send {destination}` span per dispatched batch and destination linking
 * to those create spans, a CONSUMER `process {destination}` span per message this process runs, continuing
 * the message's trace; `messaging.client.operation.duration` (s), `messaging.client.sent.messages`,
 * `messaging.process.duration` (s) and `messaging.client.consumed.messages`.
 */
export class MessagingTelemetry {
  private readonly tracer: PackTracer;
  private readonly operationDuration: PackHistogram;
  private readonly processDuration: PackHistogram;
  private readonly sent: PackCounter;
  private readonly consumed: PackCounter;

  constructor(telemetry: PackTelemetry) {
    this.tracer = telemetry.tracer;
    const advice = { unit: 's', buckets: messagingDurationBuckets };
    this.operationDuration = telemetry.meter.histogram(
      'messaging.client.operation.duration',
      'Duration of messaging operations initiated by a producer or consumer client',
      advice,
    );
    this.processDuration = telemetry.meter.histogram(
      'messaging.process.duration',
      'Duration of processing operations',
      advice,
    );
    this.sent = telemetry.meter.counter(
      'messaging.client.sent.messages',
      'Number of messages producer attempted to send to the broker',
      '{message}',
    );
    this.consumed = telemetry.meter.counter(
      'messaging.client.consumed.messages',
      'Number of messages that were delivered to the application',
      '{message}',
    );
  }

  /**
   * Records the creation of `message` for `target` (a PRODUCER `create` span, ended at once) and answers the
   * message with the span's trace context in its headers; without an SDK the message is returned as is.
   */
  created(message: EventMessage, target: MessagingDestination): EventMessage {
    const span = this.tracer.start(`create ${target.destination}`, {
      kind: 'producer',
      attributes: {
        ...attributesOf(target, 'create', 'create'),
        'messaging.message.id': message.publicationId,
      },
    });
    const carrier = span.carrier();
    span.end();
    return carrying(message, carrier);
  }

  /**
   * Records a message delivered within the publishing request (the direct lane): no span of its own, the
   * publishing span (the request's, or the caller's) is its creation context and goes into its headers as
   * `traceparent`, so the `process` span is that span's child and a subscription that publishes onward or
   * calls out continues the trace. A `create` span is for a message sent later, apart from its request.
   */
  inRequest(message: EventMessage): EventMessage {
    return carrying(message, this.tracer.activeCarrier());
  }

  /**
   * Sends a batch through `send` (which answers null or an error summary per message, in order): a CLIENT
   * `send` span per destination of the batch, linked to the messages' create spans, active while `send`
   * runs; one operation duration per destination and a sent-messages count per message and outcome.
   */
  async send(
    messages: readonly EventMessage[],
    destinationOf: (message: EventMessage) => MessagingDestination,
    send: () => Promise<readonly (string | null)[]>,
  ): Promise<readonly (string | null)[]> {
    const groups = new Map<string, { target: MessagingDestination; indexes: number[] }>();
    messages.forEach((message, index) => {
      const target = destinationOf(message);
      const key = `${target.system}\u0000${target.destination}`;
      const group = groups.get(key) ?? { target, indexes: [] };
      group.indexes.push(index);
      groups.set(key, group);
    });
    const spans = [...groups.values()].map((group) =>
      this.tracer.start(`send ${group.target.destination}`, {
        kind: 'client',
        attributes: {
          ...attributesOf(group.target, 'send', 'send'),
          ...(group.indexes.length > 1 ? { 'messaging.batch.message_count': group.indexes.length } : {}),
        },
        links: group.indexes.map((index) => traceCarrierOf(messages[index]!)),
      }),
    );
    const startedAt = performance.now();
    let outcomes: readonly (string | null)[];
    try {
      outcomes = await send();
    } catch (error) {
      const duration = seconds(startedAt);
      [...groups.values()].forEach((group, position) => {
        const failed = { ...attributesOf(group.target, 'send', 'send'), 'error.type': errorTypeOf(error) };
        this.sent.add(group.indexes.length, failed);
        this.operationDuration.record(duration, failed);
        spans[position]!.fail(error);
        spans[position]!.end();
      });
      throw error;
    }
    const duration = seconds(startedAt);
    [...groups.values()].forEach((group, position) => {
      const span = spans[position]!;
      const base = attributesOf(group.target, 'send', 'send');
      // A dispatcher reports a failure as a summary (free text, not a type): `_OTHER` per the conventions.
      const failures = group.indexes.filter((index) => (outcomes[index] ?? null) !== null).length;
      const failed = { ...base, 'error.type': '_OTHER' };
      if (failures < group.indexes.length) this.sent.add(group.indexes.length - failures, base);
      if (failures > 0) {
        this.sent.add(failures, failed);
        span.fail(new Error(`${failures} of ${group.indexes.length} message(s) not confirmed`));
      }
      this.operationDuration.record(duration, failures > 0 ? failed : base);
      span.end();
    });
    return outcomes;
  }

  /**
   * Runs `work` as the processing of `message` by this process: a CONSUMER `process` span continuing the
   * trace the message carries (the active span's child when delivered within the request), the process duration and one consumed message; a throw marks both failed.
   */
  process<T>(
    message: EventMessage,
    target: MessagingDestination,
    work: () => Promise<T>,
    /** Delivered within the publishing request (`inRequest`): the active span is the parent as it is. */
    inRequest = false,
  ): Promise<T> {
    const base = attributesOf(target, 'process', 'process');
    const startedAt = performance.now();
    this.consumed.add(1, base);
    return this.tracer.within(
      `process ${target.destination}`,
      {
        kind: 'consumer',
        attributes: { ...base, 'messaging.message.id': message.publicationId },
        ...(inRequest ? {} : { parent: message.headers }),
      },
      async () => {
        try {
          const result = await work();
          this.processDuration.record(seconds(startedAt), base);
          return result;
        } catch (error) {
          this.processDuration.record(seconds(startedAt), { ...base, 'error.type': errorTypeOf(error) });
          throw error;
        }
      },
    );
  }
}

/** `message` with the trace-context fields in its headers; as it is when there are none (no SDK, no span). */
function carrying(message: EventMessage, carrier: Record<string, string>): EventMessage {
  return Object.keys(carrier).length === 0
    ? message
    : { ...message, headers: { ...message.headers, ...carrier } };
}

function attributesOf(
  target: MessagingDestination,
  operationName: string,
  operationType: string,
): Record<string, string> {
  return {
    'messaging.system': target.system,
    'messaging.destination.name': target.destination,
    'messaging.operation.name': operationName,
    'messaging.operation.type': operationType,
  };
}
