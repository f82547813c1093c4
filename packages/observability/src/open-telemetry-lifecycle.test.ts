import { defineOperation } from '@corekit/abstractions';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { createJsonLogger } from '@corekit/engine-core';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import { addObservabilityContribution } from './add-observability-contribution';
import { addOpenTelemetry } from './add-open-telemetry';
import { closeTelemetryHosts, prometheusSample, startTelemetryHost } from './test-support/telemetry-host';

afterEach(closeTelemetryHosts);

const traceId = '0af7651916cd43dd8448eb211c80319c';

describe('addOpenTelemetry over the engine lifecycle', () => {
  it('gives every JSON log record written inside a request the trace_id and span_id of its span', async () => {
    const lines: string[] = [];
    const telemetry = await startTelemetryHost({
      logger: createJsonLogger({ write: (line) => void lines.push(line) }),
      setup: (builder) =>
        builder.addOperation(
          defineOperation({
            id: 'orders.ping',
            method: 'GET',
            path: '/api/ping',
            summary: 'logs one record',
            result: z.object({ ok: z.boolean() }),
            authorization: { mode: 'anonymous' },
            handler: (_input, context) => {
              context.logger.log({ level: 'info', eventId: 9001, message: 'ping handled' });
              return { ok: true };
            },
          }),
        ),
    });
    expect(
      (await telemetry.get('/api/ping', { traceparent: `00-${traceId}-b7ad6b7169203331-01` })).status,
    ).toBe(200);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const handled = records.find((record) => record.message === 'ping handled');
    expect(handled).toMatchObject({
      trace_id: traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      trace_flags: '01',
    });
    expect(handled?.span_id).not.toBe('b7ad6b7169203331');
    // A request the caller did not sample: its records keep the ids (grouped), flagged 00, and nothing is recorded.
    const unsampledTrace = '1af7651916cd43dd8448eb211c80319d';
    expect(
      (await telemetry.get('/api/ping', { traceparent: `00-${unsampledTrace}-b7ad6b7169203331-00` })).status,
    ).toBe(200);
    const unsampled = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((record) => record.message === 'ping handled' && record.trace_id === unsampledTrace);
    expect(unsampled).toMatchObject({ span_id: expect.stringMatching(/^[0-9a-f]{16}$/), trace_flags: '00' });
    // Outside any span (the engine starting) a record carries no trace context.
    const started = records.find((record) => record.eventId === 2001);
    expect(started).toBeDefined();
    expect(started).not.toHaveProperty('trace_id');
  });

  it('keeps the SDK and its counters across engine.restart(), and stops it with the engine', async () => {
    const telemetry = await startTelemetryHost();
    await telemetry.host.engine.restart();
    const text = (await telemetry.get('/metrics')).text;
    expect(
      prometheusSample(text, 'corekit_engine_runtime_transitions_total', { transition: 'Started' }),
    ).toBe(2);
    expect(telemetry.logger.withEventId(3013)).toEqual([]);
    await telemetry.host.close();
    expect(telemetry.logger.withEventId(3013)).toEqual([expect.objectContaining({ level: 'info' })]);
  });

  it('stops within ShutdownTimeoutMilliseconds when an exporter never finishes, and says so', async () => {
    const telemetry = await startTelemetryHost({
      openTelemetry: { ShutdownTimeoutMilliseconds: 200 },
      setup: (builder) =>
        addObservabilityContribution(builder, {
          id: 3115,
          platform: 'Stuck Cloud',
          spanExporters: () => [
            {
              export: (_spans, done) => done({ code: 0 }),
              shutdown: () => new Promise<void>(() => undefined),
            },
          ],
        }),
    });
    await telemetry.get('/health/ready');
    await telemetry.host.close();
    expect(telemetry.logger.withEventId(3013)).toEqual([
      expect.objectContaining({ level: 'warn', message: expect.stringContaining('within 200 ms') }),
    ]);
    expect(telemetry.host.engine.state).toBe('Stopped');
  });

  it('follows the engine across a failed start, a stop and a new start: never left as the process provider', async () => {
    const sdkRunning = () =>
      isSpanContextValid(trace.getTracer('lifecycle').startSpan('probe').spanContext());
    // A start refused by the configuration check never starts the SDK, and the stop after it leaves none.
    const refused = createTestEngineBuilder({
      configuration: { Engine: { Observability: { OpenTelemetry: { Promethus: { Path: '/m' } } } } },
    });
    addOpenTelemetry(refused.builder, { Prometheus: { Enabled: false } });
    const refusedEngine = refused.builder.build();
    await expect(refusedEngine.start()).rejects.toMatchObject({ code: 'CONFIGURATION_INVALID' });
    await refusedEngine.stop();
    expect(sdkRunning()).toBe(false);

    // A start failing after the SDK started (a module) shuts it down; the next start builds a new one.
    let failStart = true;
    const failing = createTestEngineBuilder();
    addOpenTelemetry(failing.builder, { Prometheus: { Enabled: false } });
    failing.builder.addModule({
      id: 'flaky',
      version: '1.0.0',
      start: () => {
        if (failStart) throw new Error('not yet');
      },
    });
    const engine = failing.builder.build();
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    await engine.stop();
    expect(failing.logger.withEventId(3010)).toHaveLength(1);
    expect(failing.logger.withEventId(3013)).toEqual([expect.objectContaining({ level: 'info' })]);
    expect(sdkRunning()).toBe(false);
    failStart = false;
    await engine.start();
    try {
      expect(sdkRunning()).toBe(true);
      expect(failing.logger.withEventId(3010)).toHaveLength(2);
    } finally {
      await engine.stop();
    }
    expect(sdkRunning()).toBe(false);
  });

  it('refuses an unknown key naming the closest known one, and a bad value naming its key path', async () => {
    const misspelled = createTestEngineBuilder({
      configuration: { Engine: { Observability: { OpenTelemetry: { Promethus: { Path: '/m' } } } } },
    }).builder;
    addOpenTelemetry(misspelled);
    // Unknown keys are refused before the first start (every add* call has bound its section by then).
    const engine = misspelled.build();
    await expect(engine.start()).rejects.toThrow(/Engine:Observability:OpenTelemetry:Promethus.*Prometheus/s);
    await engine.stop();

    const badProtocol = createTestEngineBuilder().builder;
    expect(() => addOpenTelemetry(badProtocol, { Otlp: { Protocol: 'udp' as never } })).toThrow(
      /Engine:Observability:OpenTelemetry:Otlp:Protocol/,
    );
    const twice = createTestEngineBuilder().builder;
    addOpenTelemetry(twice);
    expect(() => addOpenTelemetry(twice)).toThrow(/already called/);
  });
});
