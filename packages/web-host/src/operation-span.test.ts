import { defineOperation, type EngineBuilder } from '@corekit/abstractions';
import { captureTelemetry, SpanKind } from '@corekit/testing/capture-telemetry';
import { pollUntil } from '@corekit/testing/poll-until';
import { z } from 'zod';
import { closeTestHosts, startTestHost } from './test-support/test-host';

const capture = captureTelemetry();
afterEach(closeTestHosts);
afterAll(() => capture.stop());

function operations(builder: EngineBuilder) {
  builder.addOperation(
    defineOperation({
      id: 'things.touch',
      method: 'POST',
      path: '/engine/things/:thingId',
      summary: 'Touches a thing',
      authorization: { mode: 'anonymous' },
      params: z.object({ thingId: z.string() }),
      result: z.object({ thingId: z.string() }),
      handler: async ({ params }) => ({ thingId: params.thingId }),
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'things.break',
      method: 'POST',
      path: '/engine/broken-things',
      summary: 'Fails',
      authorization: { mode: 'anonymous' },
      result: z.object({}),
      handler: async () => {
        throw new Error('the disk is on fire');
      },
    }),
  );
}

const traceId = '0af7651916cd43dd8448eb211c80319c';
const inTrace = (id: string) => capture.spans().filter((span) => span.spanContext().traceId === id);

describe('operation spans over HTTP', () => {
  it('an operation served by an HTTP route is traced on the request span, not a child repeating it', async () => {
    const test = await startTestHost({ setup: operations });
    const answer = await test.request('/engine/things/t-1', {
      method: 'POST',
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    expect(answer.status).toBe(200);
    const spans = await pollUntil(
      async () => inTrace(traceId),
      (found) => found.length > 0,
    );
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      name: 'POST /engine/things/:thingId',
      kind: SpanKind.SERVER,
      attributes: expect.objectContaining({
        'http.route': '/engine/things/:thingId',
        'http.response.status_code': 200,
        'corekit.operation.id': 'things.touch',
        'corekit.operation.transport': 'http',
        'corekit.operation.status': 200,
      }),
    });
    expect(spans[0]!.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });

  it('a failing operation marks the request span failed through its 500, with the operation named', async () => {
    const test = await startTestHost({ setup: operations });
    const failedTrace = '1bf7651916cd43dd8448eb211c80319d';
    const answer = await test.request('/engine/broken-things', {
      method: 'POST',
      headers: { traceparent: `00-${failedTrace}-c7ad6b7169203332-01` },
    });
    expect(answer.status).toBe(500);
    const [span] = await pollUntil(
      async () => inTrace(failedTrace),
      (found) => found.length > 0,
    );
    expect(span?.status.code).toBe(2);
    expect(span?.attributes).toMatchObject({
      'corekit.operation.id': 'things.break',
      'http.response.status_code': 500,
    });
    expect(inTrace(failedTrace)).toHaveLength(1);
  });

  it('an in-process invocation gets its own operation span', async () => {
    const test = await startTestHost({ setup: operations });
    const outcome = await test.host.engine.operations.invoke('things.touch', { params: { thingId: 't-2' } });
    expect(outcome.status).toBe(200);
    const own = capture
      .spans()
      .filter((span) => span.name === 'operation things.touch' && span.kind === SpanKind.INTERNAL);
    expect(own).toHaveLength(1);
    expect(own[0]!.attributes).toMatchObject({
      'corekit.operation.id': 'things.touch',
      'corekit.operation.transport': 'in-process',
      'corekit.operation.status': 200,
    });
  });
});
