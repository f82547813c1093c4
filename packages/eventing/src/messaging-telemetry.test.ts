import { captureTelemetry, SpanKind } from '@corekit/testing/capture-telemetry';
import { pollUntil } from '@corekit/testing/poll-until';
import { expectMessagingTelemetry } from '@corekit/testing/semantic-convention-expectations';
import type { EventDispatcher, EventMessage } from './index';
import { useEventDispatcher } from './index';
import { declareOrders, eventually, startEventing } from './test-support/eventing-fixture';

const capture = captureTelemetry();
const engines: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
});
afterAll(() => capture.stop());

async function start(...args: Parameters<typeof startEventing>) {
  const started = await startEventing(...args);
  engines.push(started.engine);
  return started;
}

const placed = (id: string, channelId = 'orders') => ({
  id,
  channelId,
  eventType: 'order-placed',
  payload: { orderId: id },
});

const spansOf = (id: string) =>
  capture.spans().filter((span) => span.attributes['messaging.message.id'] === id);

describe('messaging telemetry of the eventing pack (semantic conventions)', () => {
  it('outbox lane, in-process subscriptions: create, send and process spans in one trace, with the four instruments', async () => {
    const seen = new Map<string, string>();
    const { publish } = await start(
      { Outbox: { Enabled: true, DispatchIntervalMilliseconds: 10 } },
      (builder) =>
        declareOrders(builder, {
          billing: ({ message }) => void seen.set(message.publicationId, message.headers.traceparent ?? ''),
        }),
    );
    await publish(placed('m-1'));
    await publish(placed('m-2'));
    await pollUntil(
      async () => seen.size,
      (size) => size === 2,
    );
    await pollUntil(
      async () => spansOf('m-2').filter((span) => span.kind === SpanKind.CONSUMER).length,
      (count) => count === 1,
    );
    const creates = await expectMessagingTelemetry(capture, {
      system: 'corekit',
      destination: 'orders',
      messages: 2,
      processed: true,
    });
    // The subscription saw the create span's context as the message's traceparent.
    for (const id of ['m-1', 'm-2']) {
      const create = creates.find((span) => span.attributes['messaging.message.id'] === id)!;
      const { traceId, spanId } = create.spanContext();
      expect(seen.get(id)).toBe(`00-${traceId}-${spanId}-01`);
    }
  });

  it('direct lane: no create span; the subscriptions run in a process span, child of the publishing span', async () => {
    const seen = new Map<string, string>();
    const { publish } = await start({}, (builder) =>
      declareOrders(builder, {
        billing: ({ message }) => void seen.set(message.publicationId, message.headers.traceparent ?? ''),
      }),
    );
    await publish(placed('d-1'));
    const spans = spansOf('d-1');
    expect(spans.filter((span) => span.kind === SpanKind.PRODUCER)).toEqual([]);
    const [process] = spans.filter((span) => span.kind === SpanKind.CONSUMER);
    expect(process?.name).toBe('process orders');
    const operation = capture
      .spans()
      .find(
        (span) =>
          span.name === 'operation eventing.publish' &&
          span.spanContext().traceId === process!.spanContext().traceId,
      );
    expect(operation).toBeDefined();
    // The publishing span is the message's creation context: the process span's parent and its traceparent.
    const { traceId, spanId } = operation!.spanContext();
    expect(process?.parentSpanContext?.spanId).toBe(spanId);
    expect(process?.spanContext().traceId).toBe(traceId);
    expect(seen.get('d-1')).toBe(`00-${traceId}-${spanId}-01`);
    expect(process?.attributes).toMatchObject({
      'messaging.system': 'corekit',
      'messaging.operation.type': 'process',
    });
  });

  it('a broker dispatcher names the system and destination; a refused send is an error on the span and the counters', async () => {
    let refuse = true;
    const delivered: EventMessage[] = [];
    const dispatcher: EventDispatcher = {
      id: 'test-broker',
      executionOwnership: 'provider-managed',
      messagingSystem: 'testbroker',
      destinationOf: (message) => `exchange:${message.channelId}.${message.eventType}`,
      async dispatch(message) {
        if (refuse) {
          refuse = false;
          throw new Error('broker down');
        }
        delivered.push(message);
      },
    };
    const { publish } = await start(
      { Outbox: { Enabled: true, DispatchIntervalMilliseconds: 10, RetryDelayMilliseconds: 0 } },
      (builder) => {
        declareOrders(builder, {});
        useEventDispatcher(builder, dispatcher);
      },
    );
    await publish(placed('b-1'));
    await eventually(() => delivered.length === 1);
    await expectMessagingTelemetry(capture, {
      system: 'testbroker',
      destination: 'exchange:orders.order-placed',
      messages: 1,
    });
    // The message the broker got carries its create span's context.
    const [create] = spansOf('b-1').filter((span) => span.kind === SpanKind.PRODUCER);
    expect(delivered[0]!.headers.traceparent).toContain(create!.spanContext().spanId);
    const sends = capture
      .spans()
      .filter(
        (span) => span.attributes['messaging.system'] === 'testbroker' && span.kind === SpanKind.CLIENT,
      );
    expect(sends.map((span) => span.status.code).sort()).toEqual([0, 2]);
    const sent = await capture.instrument('messaging.client.sent.messages');
    const points = sent!.points.filter((point) => point.attributes['messaging.system'] === 'testbroker');
    expect(points.map((point) => [point.attributes['error.type'], point.value])).toEqual(
      expect.arrayContaining([
        [undefined, 1],
        ['_OTHER', 1],
      ]),
    );
  });
});
