import { INVALID_SPAN_CONTEXT, trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { tracerBound } from './tracer-binding';

afterEach(() => trace.disable());

/** A provider whose tracer answers `span` for every startSpan: which provider served a call is visible. */
function providerAnswering(span: Span): TracerProvider {
  const tracer = { startSpan: () => span, startActiveSpan: () => undefined } as unknown as Tracer;
  return { getTracer: () => tracer };
}

describe('tracerBound', () => {
  it('keeps one tracer while the provider stays, and follows an SDK registered, unregistered and registered again', () => {
    const tracer = tracerBound('corekit-binding-test');
    expect(tracer()).toBe(tracer());
    expect(tracer().startSpan('before').isRecording()).toBe(false);

    const first = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    trace.setGlobalTracerProvider(providerAnswering(first));
    expect(tracer().startSpan('registered')).toBe(first);

    trace.disable();
    expect(tracer().startSpan('unregistered')).not.toBe(first);
    const second = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    trace.setGlobalTracerProvider(providerAnswering(second));
    expect(tracer().startSpan('again')).toBe(second);
  });
});
