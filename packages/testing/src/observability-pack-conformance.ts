import type { EngineBuilder } from '@corekit/abstractions';
import { metrics, trace } from '@opentelemetry/api';
import { pollUntil } from './poll-until';
import { startOtlpReceiver, type OtlpReceiver } from './fakes/otlp/otlp-receiver';
import type { ReceivedMetric, ReceivedSpan } from './fakes/otlp/otlp-records';
import { createTestEngineBuilder } from './test-engine-builder';

/** What one export request carried, whatever the platform's wire format (OTLP, Azure track, Cloud Trace). */
export interface PlatformReceivedData {
  readonly spans: readonly Pick<ReceivedSpan, 'name' | 'traceId' | 'attributes' | 'resource'>[];
  readonly metrics: readonly Pick<ReceivedMetric, 'name' | 'temporality' | 'resource'>[];
  /** Headers of every request, names lower-cased. */
  readonly headers: readonly Readonly<Record<string, string | string[] | undefined>>[];
}

/** A local server that speaks the platform's ingestion protocol, as the suite drives it. */
export interface PlatformReceiver {
  /** Everything decoded so far. */
  received(): PlatformReceivedData;
  /** From now on answer exports with `status`, so that the exporters fail. */
  failWith(status: number): void;
  close(): Promise<void>;
}

/** An OTLP/HTTP receiver (see `startOtlpReceiver`) as the conformance suite drives it; `otlp` is the receiver. */
export async function startOtlpPlatformReceiver(
  options: { prefix?: string } = {},
): Promise<PlatformReceiver & { readonly endpoint: string; readonly otlp: OtlpReceiver }> {
  const otlp = await startOtlpReceiver(options);
  return {
    endpoint: otlp.url,
    otlp,
    received: () => ({
      spans: otlp.spans,
      metrics: otlp.metrics,
      headers: otlp.exports.map((entry) => entry.headers),
    }),
    failWith: (status) => otlp.failWith(status),
    close: () => otlp.close(),
  };
}

/** Code configuration nested by the segments of a `:` key path (`Engine:Observability:X` → `{ Engine: ... }`). */
function nestedAt(path: string, value: unknown): Record<string, unknown> {
  return path
    .split(':')
    .reverse()
    .reduce<unknown>((inner, segment) => ({ [segment]: inner }), value) as Record<string, unknown>;
}

/**
 * A test engine builder with `addOpenTelemetry` (service `serviceName`, metrics pushed every 200 ms, no
 * Prometheus route) and the pack under test registered with `options`: what a host using the pack composes.
 */
export function composeObservabilityHost<Options>(host: {
  readonly addOpenTelemetry: (builder: EngineBuilder, options?: Record<string, unknown>) => unknown;
  readonly register: (builder: EngineBuilder, options?: Options) => unknown;
  readonly options: Options;
  readonly serviceName: string;
  /** Further code configuration, nested by key segments. */
  readonly configuration?: Record<string, unknown>;
}) {
  const test = createTestEngineBuilder(host.configuration ? { configuration: host.configuration } : {});
  host.addOpenTelemetry(test.builder, {
    ServiceName: host.serviceName,
    MetricExportIntervalMilliseconds: 200,
    Prometheus: { Enabled: false },
  });
  host.register(test.builder, host.options);
  return test;
}

export interface ObservabilityPackConformance<Options, Receiver extends PlatformReceiver = PlatformReceiver> {
  /** Platform name for the test titles. */
  readonly platform: string;
  /** The pack's spec event id. */
  readonly eventId: number;
  /** `Engine:Observability:<Platform>`. */
  readonly section: string;
  /** Starts the platform's local receiver. */
  readonly startReceiver: () => Promise<Receiver>;
  /** Options that point the pack at `receiver` with working credentials (containing `secret`). */
  readonly options: (receiver: Receiver) => Options;
  /** The pack's `add<Platform>Observability`. */
  readonly register: (builder: EngineBuilder, options?: Options) => unknown;
  /** `addOpenTelemetry` of `@corekit/observability` (injected: the kit cannot depend on the pack core). */
  readonly addOpenTelemetry: (builder: EngineBuilder, options?: Record<string, unknown>) => unknown;
  /** A credential the options carry: it must never appear in a log record or an error. */
  readonly secret: string;
  /** The option key holding the credential; a `<PLACEHOLDER>` left in it is refused at that key path. */
  readonly secretKey?: string;
  /** Asserts the platform's credential headers on one export request. */
  readonly expectCredentials: (headers: Readonly<Record<string, string | string[] | undefined>>) => void;
  /**
   * The status the receiver answers to make an export fail (default 401): one the platform's exporter
   * reports as a failure rather than keeping for a retry.
   */
  readonly failureStatus?: number;
  /** The metric temporality the platform ingests; undefined when its format has none (Azure). */
  readonly temporality?: 'delta' | 'cumulative';
  /** Resource attributes the pack itself adds (`cloud.provider: aws`), asserted on what arrives. */
  readonly resource?: Readonly<Record<string, unknown>>;
  /** A key of the section to misspell, with the value to give it: refused naming the key and the closest. */
  readonly misspelled: { readonly key: string; readonly typo: string; readonly value: unknown };
}

/**
 * The checks every hosted-platform observability pack passes, each against its platform's real wire format
 * on a local receiver: the pack's event id at registration; a span, a counter and the resource (service name
 * and the pack's own attributes) arrive with the platform's credentials and temporality; a failed export is
 * logged with the pack's event id; a misspelled key and a placeholder secret are refused naming the key path;
 * the credential never appears in a log record. A new pack gets them by calling this in its test file.
 */
export function describeObservabilityPackConformance<
  Options extends object,
  Receiver extends PlatformReceiver = PlatformReceiver,
>(suite: ObservabilityPackConformance<Options, Receiver>): void {
  const serviceName = `conformance-${suite.platform.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

  describe(`${suite.platform} observability pack conformance`, () => {
    let receiver: Receiver;
    beforeEach(async () => {
      receiver = await suite.startReceiver();
    });
    afterEach(async () => {
      await receiver.close();
    });

    const compose = (options: Options, configuration?: Record<string, unknown>) =>
      composeObservabilityHost({ ...suite, serviceName, options, configuration });

    it(`logs event id ${suite.eventId} when it is registered, never the credential`, () => {
      const { logger } = compose(suite.options(receiver));
      expect(logger.withEventId(suite.eventId)).toEqual([expect.objectContaining({ level: 'info' })]);
      expect(logger.text()).not.toContain(suite.secret);
    });

    it('delivers spans, metrics and the resource in the platform wire format with its credentials', async () => {
      const { builder, logger } = compose(suite.options(receiver));
      const engine = builder.build();
      await engine.start();
      try {
        const tracer = trace.getTracer('corekit-conformance');
        const span = tracer.startSpan('conformance-operation', {
          attributes: { 'conformance.case': 'span' },
        });
        span.end();
        const traceId = span.spanContext().traceId;
        metrics
          .getMeter('corekit-conformance')
          .createCounter('conformance.operations')
          .add(3, { case: 'count' });

        const data = await pollUntil(
          async () => receiver.received(),
          (seen) =>
            seen.spans.some((entry) => entry.name === 'conformance-operation') &&
            seen.metrics.some((entry) => entry.name === 'conformance.operations'),
          { timeoutMs: 15_000 },
        );
        const exported = data.spans.find((entry) => entry.name === 'conformance-operation');
        expect(exported).toBeDefined();
        expect(exported!.traceId).toBe(traceId);
        expect(exported!.resource['service.name']).toBe(serviceName);
        for (const [key, value] of Object.entries(suite.resource ?? {}))
          expect(exported!.resource[key]).toEqual(value);
        const counter = data.metrics.find((entry) => entry.name === 'conformance.operations');
        expect(counter).toBeDefined();
        expect(counter!.resource['service.name']).toBe(serviceName);
        if (suite.temporality) expect(counter!.temporality).toBe(suite.temporality);
        expect(data.headers.length).toBeGreaterThan(0);
        for (const headers of data.headers) suite.expectCredentials(headers);
      } finally {
        await engine.stop();
      }
      expect(logger.text()).not.toContain(suite.secret);
    });

    it(`logs a failed export with event id ${suite.eventId}, without the credential`, async () => {
      const { builder, logger } = compose(suite.options(receiver));
      receiver.failWith(suite.failureStatus ?? 401);
      const engine = builder.build();
      await engine.start();
      try {
        trace.getTracer('corekit-conformance').startSpan('conformance-failure').end();
        const failures = await pollUntil(
          async () => logger.withEventId(suite.eventId).filter((record) => record.level !== 'info'),
          (seen) => seen.length > 0,
          { timeoutMs: 15_000 },
        );
        expect(failures.length).toBeGreaterThan(0);
      } finally {
        await engine.stop();
      }
      expect(logger.text()).not.toContain(suite.secret);
    });

    it('refuses a misspelled key naming its full path and the closest known key', async () => {
      const { key, typo, value } = suite.misspelled;
      const { builder } = compose(suite.options(receiver), nestedAt(`${suite.section}:${typo}`, value));
      let failure: unknown;
      let engine: ReturnType<typeof builder.build> | undefined;
      try {
        engine = builder.build();
        await engine.start();
      } catch (error) {
        failure = error;
      } finally {
        await engine?.stop();
      }
      expect(failure).toMatchObject({ code: 'CONFIGURATION_INVALID' });
      const message = (failure as Error).message;
      expect(message).toContain(`${suite.section}:${typo}`);
      expect(message).toContain(key);
      expect(message).not.toContain(suite.secret);
    });

    const secretKey = suite.secretKey;
    if (secretKey)
      it(`refuses a credential left as a placeholder at ${suite.section}:${secretKey}`, () => {
        const options = { ...suite.options(receiver), [secretKey]: '<SECRET>' } as Options;
        expect(() => compose(options)).toThrow(
          expect.objectContaining({
            code: 'CONFIGURATION_INVALID',
            message: expect.stringContaining(`${suite.section}:${secretKey}`),
          }),
        );
      });
  });
}
