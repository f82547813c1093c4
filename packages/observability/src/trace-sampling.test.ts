import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { BasicTracerProvider, SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { startOtlpReceiver, type OtlpReceiver } from '@corekit/testing/fakes/otlp/otlp-receiver';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addOpenTelemetry } from './add-open-telemetry';
import { samplingOptionsSchema } from './open-telemetry-options';
import { OtelEnvironment } from './otel-environment';
import { closeTelemetryHosts, startTelemetryHost } from './test-support/telemetry-host';
import { registeredTracerProvider } from './telemetry-sdk';
import { RateLimitedSampler, traceSampling } from './trace-sampling';
import { ParentFollowingTracerProvider } from './unsampled-children';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const ask = (sampler: { shouldSample: RateLimitedSampler['shouldSample'] }, context = ROOT_CONTEXT) =>
  sampler.shouldSample(context, traceId, 'GET /orders', SpanKind.SERVER, {}, []).decision;
const environment = (variables: Record<string, string>) => new OtelEnvironment((name) => variables[name]);

describe('RateLimitedSampler (a token bucket, on a clock the test moves)', () => {
  it('records up to one second of budget at once, then as many per second as configured', () => {
    let now = 0;
    const sampler = new RateLimitedSampler(4, () => now);
    const burst = Array.from({ length: 10 }, () => ask(sampler));
    expect(burst.filter((decision) => decision === SamplingDecision.RECORD_AND_SAMPLED)).toHaveLength(4);
    expect(burst.slice(4).every((decision) => decision === SamplingDecision.NOT_RECORD)).toBe(true);
    now += 250; // a quarter second refills one
    expect(ask(sampler)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(ask(sampler)).toBe(SamplingDecision.NOT_RECORD);
    now += 60_000; // a long pause refills to the capacity, not beyond
    const after = Array.from({ length: 10 }, () => ask(sampler));
    expect(after.filter((decision) => decision === SamplingDecision.RECORD_AND_SAMPLED)).toHaveLength(4);
  });

  it('keeps at least one trace in the bucket below one per second, and refuses a rate that is not positive', () => {
    let now = 0;
    const sampler = new RateLimitedSampler(0.5, () => now);
    expect(ask(sampler)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(ask(sampler)).toBe(SamplingDecision.NOT_RECORD);
    now += 1000;
    expect(ask(sampler)).toBe(SamplingDecision.NOT_RECORD);
    now += 1000;
    expect(ask(sampler)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(() => new RateLimitedSampler(0)).toThrow(/positive/);
    expect(() => new RateLimitedSampler(Number.NaN)).toThrow(/positive/);
  });
});

describe('traceSampling (section, OTEL_TRACES_SAMPLER, default)', () => {
  const sampled = trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: '00f067aa0ba902b7',
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
  const notSampled = trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: '00f067aa0ba902b7',
    traceFlags: TraceFlags.NONE,
    isRemote: true,
  });

  it('defaults to parent-based rate limited at 10 traces per second: a caller that sampled is always followed', () => {
    const sampling = traceSampling(samplingOptionsSchema.parse({}), environment({}));
    expect(sampling).toMatchObject({
      name: 'parentbased_corekit_rate_limited',
      argument: 10,
      source: 'default',
    });
    const roots = Array.from({ length: 30 }, () => ask(sampling.sampler));
    expect(roots.filter((decision) => decision === SamplingDecision.RECORD_AND_SAMPLED).length).toBeLessThan(
      30,
    );
    // Followed whatever the budget: the caller's choice (flag 01 or 00) decides a continued trace.
    for (let index = 0; index < 30; index++) {
      expect(ask(sampling.sampler, sampled)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
      expect(ask(sampling.sampler, notSampled)).toBe(SamplingDecision.NOT_RECORD);
    }
  });

  it('reads OTEL_TRACES_SAMPLER and its argument; the section wins over them', () => {
    expect(
      traceSampling(samplingOptionsSchema.parse({}), environment({ OTEL_TRACES_SAMPLER: 'always_on' })),
    ).toMatchObject({ name: 'always_on', source: 'OTEL_TRACES_SAMPLER' });
    const ratio = traceSampling(
      samplingOptionsSchema.parse({}),
      environment({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }),
    );
    expect(ratio).toMatchObject({ name: 'parentbased_traceidratio', argument: 0.25 });
    expect(
      traceSampling(
        samplingOptionsSchema.parse({}),
        environment({
          OTEL_TRACES_SAMPLER: 'parentbased_corekit_rate_limited',
          OTEL_TRACES_SAMPLER_ARG: '50',
        }),
      ),
    ).toMatchObject({ name: 'parentbased_corekit_rate_limited', argument: 50 });
    const section = traceSampling(
      samplingOptionsSchema.parse({ Strategy: 'AlwaysOn' }),
      environment({ OTEL_TRACES_SAMPLER: 'always_off' }),
    );
    expect(section).toMatchObject({ name: 'parentbased_always_on', source: 'section' });
    expect(
      Array.from({ length: 50 }, () => ask(section.sampler)).every(
        (d) => d === SamplingDecision.RECORD_AND_SAMPLED,
      ),
    ).toBe(true);
  });

  it('refuses an unknown sampler name and an argument out of range, naming the variable', () => {
    expect(() =>
      traceSampling(samplingOptionsSchema.parse({}), environment({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })),
    ).toThrow(/OTEL_TRACES_SAMPLER is "jaeger_remote"; expected one of/);
    expect(() =>
      traceSampling(
        samplingOptionsSchema.parse({}),
        environment({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }),
      ),
    ).toThrow(/OTEL_TRACES_SAMPLER_ARG is "1.5"/);
    expect(() =>
      traceSampling(
        samplingOptionsSchema.parse({}),
        environment({ OTEL_TRACES_SAMPLER: 'corekit_rate_limited', OTEL_TRACES_SAMPLER_ARG: 'many' }),
      ),
    ).toThrow(/positive number of traces per second/);
  });

  it('refuses section values that do not go together, naming the key path', () => {
    const bind = (sampling: Record<string, unknown>) => {
      const { builder } = createTestEngineBuilder({
        configuration: { Engine: { Observability: { OpenTelemetry: { Sampling: sampling } } } },
      });
      return () => addOpenTelemetry(builder);
    };
    expect(bind({ Strategy: 'Ratio' })).toThrow(/OpenTelemetry:Sampling:Ratio.*needs a Ratio/s);
    expect(bind({ Strategy: 'AlwaysOn', TracesPerSecond: 5 })).toThrow(
      /Sampling:TracesPerSecond.*only with/s,
    );
    expect(bind({ Strategy: 'Sometimes' })).toThrow(/Sampling:Strategy/);
    expect(bind({ TracesPerSecond: 0 })).toThrow(/Sampling:TracesPerSecond/);
  });
});

describe('sampling in a running host (a local OTLP receiver)', () => {
  let receiver: OtlpReceiver | undefined;
  afterEach(async () => {
    await closeTelemetryHosts();
    await receiver?.close();
    receiver = undefined;
  });

  async function serverSpans(
    options: Parameters<typeof startTelemetryHost>[0],
    requests: number,
    headers: Record<string, string> = {},
  ) {
    const telemetry = await startTelemetryHost(options);
    const startedAt = performance.now();
    for (let index = 0; index < requests; index++) {
      expect((await telemetry.get('/engine/status', headers)).status).toBe(200);
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const surface = JSON.parse((await telemetry.get('/engine/technology-surfaces')).text) as {
      items?: Array<{ id: string; metadata: Record<string, unknown> }>;
    };
    await telemetry.host.close();
    return {
      recorded: receiver!.spans.filter((span) => span.name === 'GET /engine/status').length,
      seconds,
      surface,
      logger: telemetry.logger,
    };
  }

  it('records at most the budget of new traces under a burst, every continued sampled trace, and reports it', async () => {
    receiver = await startOtlpReceiver();
    const limited = await serverSpans(
      {
        environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        openTelemetry: { Sampling: { TracesPerSecond: 2 } },
      },
      40,
    );
    expect(limited.recorded).toBeGreaterThanOrEqual(1);
    // The bucket holds two and refills two per second of the burst (measured, so a slow machine is allowed more).
    expect(limited.recorded).toBeLessThanOrEqual(2 + Math.ceil(2 * limited.seconds) + 1);
    expect(limited.recorded).toBeLessThan(40);
    expect(JSON.stringify(limited.surface)).toContain(
      '"sampler":{"name":"parentbased_corekit_rate_limited","argument":2,"source":"section"}',
    );
    expect(limited.logger.withEventId(3010)[0]?.message).toMatch(
      /traces sampled by parentbased_corekit_rate_limited \(2\)/,
    );

    await receiver.close();
    receiver = await startOtlpReceiver();
    const continued = await serverSpans(
      {
        environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        openTelemetry: { Sampling: { TracesPerSecond: 2 } },
      },
      20,
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    expect(continued.recorded).toBe(20);
  });

  it('records every trace with OTEL_TRACES_SAMPLER=parentbased_always_on, and reports the default otherwise', async () => {
    receiver = await startOtlpReceiver();
    const always = await serverSpans(
      {
        environment: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        },
      },
      25,
    );
    expect(always.recorded).toBe(25);
    expect(JSON.stringify(always.surface)).toContain(
      '"sampler":{"name":"parentbased_always_on","argument":null,"source":"OTEL_TRACES_SAMPLER"}',
    );

    await receiver.close();
    receiver = await startOtlpReceiver();
    const defaults = await serverSpans({ environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } }, 3);
    expect(defaults.recorded).toBe(3);
    expect(JSON.stringify(defaults.surface)).toContain(
      '"sampler":{"name":"parentbased_corekit_rate_limited","argument":10,"source":"default"}',
    );
    // Ids come from this package's generator when no platform contributes one (the AWS pack's test sees X-Ray's).
    expect(JSON.stringify(defaults.surface)).toContain('"idGenerator":"random"');
    const spans = receiver.spans.filter((span) => span.name === 'GET /engine/status');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(3);
    for (const span of spans) expect(span.traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
  });

  it('leaves alone a tracer provider registered before the SDK (the API keeps the first)', async () => {
    const own = new BasicTracerProvider();
    trace.setGlobalTracerProvider(own);
    try {
      const telemetry = await startTelemetryHost();
      expect(registeredTracerProvider()).toBe(own);
      await telemetry.host.close();
    } finally {
      trace.disable();
    }
  });

  it('answers children of unsampled spans without the SDK only under a parent-based sampler', async () => {
    receiver = await startOtlpReceiver();
    const parentBased = await startTelemetryHost({
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    });
    expect(registeredTracerProvider()).toBeInstanceOf(ParentFollowingTracerProvider);
    const unsampled = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.NONE,
      isRemote: true,
    });
    const child = trace.getTracer('sampling-test').startSpan('child', {}, unsampled);
    expect(child.isRecording()).toBe(false);
    expect(child.spanContext().traceId).toBe(traceId);
    child.end();
    for (let index = 0; index < 5; index++) {
      const answer = await parentBased.get('/engine/status', {
        traceparent: `00-${traceId}-00f067aa0ba902b7-00`,
      });
      expect(answer.status).toBe(200);
    }
    await parentBased.get('/engine/status', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await parentBased.host.close();
    // The five continued unsampled traces are not recorded; the sampled one is.
    expect(receiver.spans.filter((span) => span.name === 'GET /engine/status')).toHaveLength(1);

    const always = await startTelemetryHost({
      environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'always_on' },
    });
    // always_on records a child of an unsampled parent, so every span goes to the SDK.
    expect(registeredTracerProvider()).not.toBeInstanceOf(ParentFollowingTracerProvider);
    const recorded = trace.getTracer('sampling-test').startSpan('child', {}, unsampled);
    expect(recorded.isRecording()).toBe(true);
    recorded.end();
    await always.host.close();
  });

  it('does not start the SDK on an unknown OTEL_TRACES_SAMPLER (event 3014); the engine runs without it', async () => {
    const telemetry = await startTelemetryHost({ environment: { OTEL_TRACES_SAMPLER: 'xray' } });
    expect(telemetry.logger.withEventId(3014)[0]?.message).toMatch(/OTEL_TRACES_SAMPLER is "xray"/);
    expect((await telemetry.get('/engine/status')).status).toBe(200);
  });
});
