import {
  context,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
  type SpanContext,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { suppressTracing, TraceState } from '@opentelemetry/core';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PooledRandomIdGenerator } from './pooled-random-ids';
import { ParentFollowingTracerProvider } from './unsampled-children';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const parentSpanId = '00f067aa0ba902b7';

function parent(flags: TraceFlags, isRemote: boolean, traceState?: TraceState): Context {
  const spanContext: SpanContext = { traceId, spanId: parentSpanId, traceFlags: flags, isRemote };
  if (traceState) spanContext.traceState = traceState;
  return trace.setSpanContext(ROOT_CONTEXT, spanContext);
}

/** The SDK's provider as a host has it (parent based), and how often its tracer was asked for a span. */
function sdkProvider() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  let asked = 0;
  const counting: TracerProvider = {
    getTracer(name, version, options) {
      const tracer = provider.getTracer(name, version, options);
      const counted: Tracer = {
        startSpan(spanName, spanOptions, spanContext) {
          asked++;
          return tracer.startSpan(spanName, spanOptions, spanContext);
        },
        startActiveSpan: tracer.startActiveSpan.bind(tracer),
      };
      return counted;
    },
  };
  return { provider, counting, exporter, asked: () => asked };
}

describe('ParentFollowingTracerProvider', () => {
  const state = new TraceState('vendor=value');
  const cases: Array<{ name: string; context: Context; fastPath: boolean }> = [
    { name: 'a local unsampled parent', context: parent(TraceFlags.NONE, false), fastPath: true },
    {
      name: 'a remote unsampled parent with trace state',
      context: parent(TraceFlags.NONE, true, state),
      fastPath: true,
    },
    { name: 'a local sampled parent', context: parent(TraceFlags.SAMPLED, false), fastPath: false },
    { name: 'a remote sampled parent', context: parent(TraceFlags.SAMPLED, true), fastPath: false },
    { name: 'no parent', context: ROOT_CONTEXT, fastPath: false },
    { name: 'suppressed tracing', context: suppressTracing(parent(TraceFlags.NONE, false)), fastPath: false },
  ];

  it.each(cases)(
    'answers what the SDK answers for $name, without the SDK only then',
    ({ context: at, fastPath }) => {
      const reference = sdkProvider().provider.getTracer('reference').startSpan('child', {}, at);
      const sdk = sdkProvider();
      const span = new ParentFollowingTracerProvider(sdk.counting, new PooledRandomIdGenerator())
        .getTracer('wrapped')
        .startSpan('child', { attributes: { 'case.attribute': 1 } }, at);
      const expected = reference.spanContext();
      const actual = span.spanContext();
      expect(span.isRecording()).toBe(reference.isRecording());
      expect(actual.traceFlags).toBe(expected.traceFlags);
      expect(actual.traceState?.serialize()).toBe(expected.traceState?.serialize());
      if (at !== ROOT_CONTEXT) expect(actual.traceId).toBe(expected.traceId);
      expect(actual.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(sdk.asked()).toBe(fastPath ? 0 : 1);
      if (fastPath) {
        expect(actual.spanId).not.toBe(parentSpanId);
        expect(actual.isRemote).toBeFalsy();
      }
      span.end();
      reference.end();
    },
  );

  it('leaves a root and a child of a sampled parent to the SDK, which records them', () => {
    const sdk = sdkProvider();
    const tracer = new ParentFollowingTracerProvider(sdk.counting, new PooledRandomIdGenerator()).getTracer(
      't',
    );
    tracer.startSpan('root', {}, ROOT_CONTEXT).end();
    tracer.startSpan('continued', {}, parent(TraceFlags.SAMPLED, true)).end();
    tracer.startSpan('dropped', {}, parent(TraceFlags.NONE, true)).end();
    expect(sdk.exporter.getFinishedSpans().map((span) => span.name)).toEqual(['root', 'continued']);
  });

  it('honours root: true under an unsampled parent (the root sampler decides)', () => {
    const sdk = sdkProvider();
    const tracer = new ParentFollowingTracerProvider(sdk.counting, new PooledRandomIdGenerator()).getTracer(
      't',
    );
    const span = tracer.startSpan('new trace', { root: true }, parent(TraceFlags.NONE, false));
    expect(span.isRecording()).toBe(true);
    expect(span.spanContext().traceId).not.toBe(traceId);
    span.end();
  });

  it('runs startActiveSpan in each of its three forms and answers the callback result', () => {
    const sdk = sdkProvider();
    const tracer = new ParentFollowingTracerProvider(sdk.counting, new PooledRandomIdGenerator()).getTracer(
      't',
    );
    const unsampled = parent(TraceFlags.NONE, false);
    expect(tracer.startActiveSpan('a', (span) => span.isRecording())).toBe(true);
    expect(tracer.startActiveSpan('b', {}, (span) => span.spanContext().traceFlags)).toBe(TraceFlags.SAMPLED);
    const child = tracer.startActiveSpan('c', {}, unsampled, (span) => span.spanContext());
    expect(child.traceId).toBe(traceId);
    expect(child.traceFlags).toBe(TraceFlags.NONE);
    expect(sdk.asked()).toBe(2);
    expect(context.active()).toBe(ROOT_CONTEXT);
  });

  it('hands out one tracer per name, version and schema', () => {
    const provider = new ParentFollowingTracerProvider(sdkProvider().counting, new PooledRandomIdGenerator());
    expect(provider.getTracer('a', '1')).toBe(provider.getTracer('a', '1'));
    expect(provider.getTracer('a', '1')).not.toBe(provider.getTracer('a', '2'));
    expect(provider.getTracer('a', '1', { schemaUrl: 'x' })).not.toBe(provider.getTracer('a', '1'));
  });
});
