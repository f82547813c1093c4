import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { databaseDurationBuckets, messagingDurationBuckets } from '@corekit/abstractions';
import type { CapturedInstrument, TelemetryCapture } from './capture-telemetry';

/** The spans of `capture` of one kind whose attributes include `attributes`. */
function spansWith(
  capture: TelemetryCapture,
  kind: SpanKind,
  attributes: Readonly<Record<string, unknown>>,
): ReadableSpan[] {
  return capture
    .spans()
    .filter(
      (span) =>
        span.kind === kind &&
        Object.entries(attributes).every(([name, value]) => span.attributes[name] === value),
    );
}

function pointsWith(
  instrument: CapturedInstrument | undefined,
  attributes: Readonly<Record<string, unknown>>,
) {
  return (instrument?.points ?? []).filter((point) =>
    Object.entries(attributes).every(([name, value]) => point.attributes[name] === value),
  );
}

/** A seconds histogram named by the conventions, with their bucket boundaries and a point for `attributes`. */
function expectDurationHistogram(
  instrument: CapturedInstrument | undefined,
  name: string,
  buckets: readonly number[],
  attributes: Readonly<Record<string, unknown>>,
): void {
  expect(instrument).toMatchObject({ name, unit: 's', kind: 'histogram' });
  const points = pointsWith(instrument, attributes);
  expect(points.length).toBeGreaterThan(0);
  for (const point of points) {
    expect(point.boundaries).toEqual(buckets);
    expect(point.value).toBeGreaterThan(0);
  }
}

/** What `expectDatabaseClientTelemetry` checks. */
export interface ExpectedDatabaseTelemetry {
  /** `db.system.name`: `postgresql`, `redis`. */
  readonly system: string;
  /** `db.operation.name` values that must each have been measured and traced (`SELECT`, `EVALSHA`). */
  readonly operations: readonly string[];
  /** `db.collection.name` every one of those operations carries, when the database has tables. */
  readonly collection?: string;
}

/**
 * Asserts the database-client semantic conventions were followed for `expected`: for each operation, a
 * CLIENT span named `{db.operation.name} {db.collection.name}` (or the operation alone without a
 * collection) with `db.system.name`, `db.operation.name` and `db.collection.name`, and points of the
 * `db.client.operation.duration` histogram (unit `s`, the advised buckets) with the same attributes.
 */
export async function expectDatabaseClientTelemetry(
  capture: TelemetryCapture,
  expected: ExpectedDatabaseTelemetry,
): Promise<void> {
  const duration = await capture.instrument('db.client.operation.duration');
  for (const operation of expected.operations) {
    const attributes = {
      'db.system.name': expected.system,
      'db.operation.name': operation,
      ...(expected.collection ? { 'db.collection.name': expected.collection } : {}),
    };
    const spans = spansWith(capture, SpanKind.CLIENT, attributes);
    expect(spans.length).toBeGreaterThan(0);
    const name = expected.collection ? `${operation} ${expected.collection}` : operation;
    expect(spans.map((span) => span.name)).toContain(name);
    expectDurationHistogram(duration, 'db.client.operation.duration', databaseDurationBuckets, attributes);
  }
}

/** What `expectMessagingTelemetry` checks. */
export interface ExpectedMessagingTelemetry {
  /** `messaging.system`: `rabbitmq`, `kafka`, `mqtt`, `corekit`. */
  readonly system: string;
  /** `messaging.destination.name` of the messages. */
  readonly destination: string;
  /** How many messages were sent (and, with `processed`, processed) at least. */
  readonly messages: number;
  /** True when this process also processed them (the in-process dispatcher): `process` spans and metrics. */
  readonly processed?: boolean;
}

/**
 * Asserts the messaging semantic conventions were followed for `expected.messages` messages to one
 * destination: a PRODUCER `create {destination}` span per message, a CLIENT `send {destination}` span (or
 * one per batch) linking to the create spans, `messaging.client.operation.duration` (s) and
 * `messaging.client.sent.messages`; with `processed`, a CONSUMER `process {destination}` span per message
 * in the trace of its create span, `messaging.process.duration` (s) and `messaging.client.consumed.messages`.
 * Returns the create spans, so a test can match the `traceparent` a broker delivered against them.
 */
export async function expectMessagingTelemetry(
  capture: TelemetryCapture,
  expected: ExpectedMessagingTelemetry,
): Promise<readonly ReadableSpan[]> {
  const destination = {
    'messaging.system': expected.system,
    'messaging.destination.name': expected.destination,
  };
  const creates = spansWith(capture, SpanKind.PRODUCER, {
    ...destination,
    'messaging.operation.name': 'create',
    'messaging.operation.type': 'create',
  });
  expect(creates.length).toBeGreaterThanOrEqual(expected.messages);
  for (const span of creates) expect(span.name).toBe(`create ${expected.destination}`);
  const sends = spansWith(capture, SpanKind.CLIENT, {
    ...destination,
    'messaging.operation.name': 'send',
    'messaging.operation.type': 'send',
  });
  expect(sends.length).toBeGreaterThan(0);
  for (const span of sends) expect(span.name).toBe(`send ${expected.destination}`);
  const createIds = new Set(creates.map((span) => span.spanContext().spanId));
  const linked = sends.flatMap((span) => span.links.map((link) => link.context.spanId));
  expect(linked.filter((id) => createIds.has(id)).length).toBeGreaterThanOrEqual(expected.messages);

  const operationDuration = await capture.instrument('messaging.client.operation.duration');
  expectDurationHistogram(
    operationDuration,
    'messaging.client.operation.duration',
    messagingDurationBuckets,
    {
      ...destination,
      'messaging.operation.name': 'send',
    },
  );
  const sent = await capture.instrument('messaging.client.sent.messages');
  expect(sent).toMatchObject({ unit: '{message}', kind: 'counter' });
  const sentCount = pointsWith(sent, destination).reduce((total, point) => total + point.value, 0);
  expect(sentCount).toBeGreaterThanOrEqual(expected.messages);

  if (expected.processed) {
    const processes = spansWith(capture, SpanKind.CONSUMER, {
      ...destination,
      'messaging.operation.name': 'process',
      'messaging.operation.type': 'process',
    });
    expect(processes.length).toBeGreaterThanOrEqual(expected.messages);
    const createTraces = new Set(creates.map((span) => span.spanContext().traceId));
    for (const span of processes) {
      expect(span.name).toBe(`process ${expected.destination}`);
      // The process span continues the trace the message carried (its traceparent: the create span).
      expect(createTraces.has(span.spanContext().traceId)).toBe(true);
      expect(createIds.has(span.parentSpanContext?.spanId ?? '')).toBe(true);
    }
    const processDuration = await capture.instrument('messaging.process.duration');
    expectDurationHistogram(processDuration, 'messaging.process.duration', messagingDurationBuckets, {
      ...destination,
      'messaging.operation.name': 'process',
    });
    const consumed = await capture.instrument('messaging.client.consumed.messages');
    expect(consumed).toMatchObject({ unit: '{message}', kind: 'counter' });
    const consumedCount = pointsWith(consumed, destination).reduce((total, point) => total + point.value, 0);
    expect(consumedCount).toBeGreaterThanOrEqual(expected.messages);
  }
  return creates;
}

/**
 * Asserts that `traceparent` (what a broker delivered with publication `publicationId`: an AMQP header, a
 * Kafka header or envelope field, an MQTT 5 user property) is the W3C context of that publication's create
 * span, so a consumer that extracts it continues the producer's trace.
 */
export function expectDeliveredTraceparent(
  creates: readonly ReadableSpan[],
  publicationId: string,
  traceparent: unknown,
): void {
  const create = creates.find((span) => span.attributes['messaging.message.id'] === publicationId);
  expect(create).toBeDefined();
  const { traceId, spanId } = create!.spanContext();
  const delivered = Buffer.isBuffer(traceparent) ? traceparent.toString('utf8') : traceparent;
  expect(delivered).toBe(`00-${traceId}-${spanId}-01`);
}
