import { captureTelemetry } from './capture-telemetry';

const capture = captureTelemetry();
afterAll(() => capture.stop());

describe('the engine tracer and meter packs use (builder.tracer, builder.meter)', () => {
  const { meter, tracer } = capture.telemetry;

  it('aggregates a histogram with the bucket boundaries and unit it was advised', async () => {
    meter
      .histogram('corekit.test.advised', 'advised buckets', { unit: 's', buckets: [0.1, 1, 10] })
      .record(0.5, { outcome: 'ok' });
    meter.histogram('corekit.test.unit_only', 'unit only', 'ms').record(3);
    expect(await capture.instrument('corekit.test.advised')).toEqual({
      name: 'corekit.test.advised',
      unit: 's',
      kind: 'histogram',
      points: [{ attributes: { outcome: 'ok' }, value: 1, boundaries: [0.1, 1, 10] }],
    });
    expect(await capture.instrument('corekit.test.unit_only')).toMatchObject({
      unit: 'ms',
      kind: 'histogram',
    });
  });

  it('runs work inside an active span: a span started meanwhile is its child, and a throw fails it', async () => {
    await expect(
      tracer.within('outer', { kind: 'consumer', attributes: { 'test.case': 'within' } }, async () => {
        tracer.start('inner', { kind: 'client' }).end();
        throw Object.assign(new Error('broken'), { code: 'TEST_BROKEN' });
      }),
    ).rejects.toThrow('broken');
    const outer = capture.spans().find((span) => span.name === 'outer')!;
    const inner = capture.spans().find((span) => span.name === 'inner')!;
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(inner.spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(outer.attributes).toMatchObject({ 'test.case': 'within', 'error.type': 'TEST_BROKEN' });
    expect(outer.status.code).toBe(2);
  });

  it('carries a span as a W3C traceparent, continues it from message headers and links to it', () => {
    const created = tracer.start('create things', { kind: 'producer' });
    const carrier = created.carrier();
    created.end();
    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    tracer
      .start('process things', {
        kind: 'consumer',
        parent: { traceparent: Buffer.from(carrier.traceparent), other: 1 },
      })
      .end();
    tracer.start('send things', { kind: 'client', links: [carrier] }).end();
    tracer.start('orphan', { parent: { traceparent: 'not a traceparent' } }).end();
    const byName = (name: string) => capture.spans().find((span) => span.name === name)!;
    const create = byName('create things').spanContext();
    expect(byName('process things').parentSpanContext?.spanId).toBe(create.spanId);
    expect(byName('process things').spanContext().traceId).toBe(create.traceId);
    expect(byName('send things').links.map((link) => link.context.spanId)).toEqual([create.spanId]);
    expect(byName('orphan').parentSpanContext).toBeUndefined();
  });
});
