import { ExportResultCode } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createTestEngineBuilder, pollUntil } from '@corekit/testing';
import { addObservabilityContribution } from './add-observability-contribution';
import { addOpenTelemetry } from './add-open-telemetry';
import { contributionRegistry } from './contribution-registry';
import { closeTelemetryHosts, startTelemetryHost } from './test-support/telemetry-host';

afterEach(closeTelemetryHosts);

/** A span exporter that keeps every span, even after shutdown (the SDK's in-memory one forgets them). */
function recordingSpanExporter(): SpanExporter & { spans: ReadableSpan[] } {
  const spans: ReadableSpan[] = [];
  return {
    spans,
    export: (batch, done) => {
      spans.push(...batch);
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => undefined,
  };
}

/** A push exporter whose every export fails, as a platform's ingestion endpoint refusing a key would. */
function refusingMetricExporter(): PushMetricExporter & { attempts: number } {
  const exporter = {
    attempts: 0,
    export(_metrics: unknown, done: (result: { code: ExportResultCode; error?: Error }) => void) {
      exporter.attempts++;
      done({ code: ExportResultCode.FAILED, error: new Error('ingestion refused the key') });
    },
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  return exporter;
}

describe('addObservabilityContribution (the contract of the hosted-platform packs)', () => {
  it('logs the pack id at registration, installs its exporters and attributes, and logs a failed export with its id', async () => {
    const spans = recordingSpanExporter();
    const metrics = refusingMetricExporter();
    const telemetry = await startTelemetryHost({
      openTelemetry: { MetricExportIntervalMilliseconds: 200 },
      setup: (builder) =>
        addObservabilityContribution(builder, {
          id: 3111,
          platform: 'Test Cloud',
          spanExporters: () => [spans],
          metricExporters: () => [metrics],
          resourceAttributes: { 'cloud.provider': 'test-cloud', 'service.name': 'loses-to-the-core' },
          resourceDetectors: () => [
            { detect: () => resourceFromAttributes({ 'cloud.region': 'eu-test-1' }) },
          ],
        }),
    });
    const registered = telemetry.logger.withEventId(3111);
    expect(registered[0]).toMatchObject({
      level: 'info',
      platform: 'Test Cloud',
      contributes: ['spanExporters', 'metricExporters', 'resourceDetectors', 'resourceAttributes'],
    });
    await telemetry.get('/engine');
    const failures = await pollUntil(
      async () => telemetry.logger.withEventId(3111).filter((record) => record.level === 'warn'),
      (found) => found.length > 0,
      { timeoutMs: 15_000 },
    );
    expect(failures[0]?.message).toContain('ingestion refused the key');
    expect(failures[0]).toMatchObject({ platform: 'Test Cloud' });
    await telemetry.host.close();

    const server = spans.spans.find((span) => span.name === 'GET /engine');
    expect(server?.resource.attributes).toMatchObject({
      'cloud.provider': 'test-cloud',
      'cloud.region': 'eu-test-1',
      'service.name': 'corekit-host',
    });
    // Failures are throttled: however many exports failed, one record per minute.
    expect(metrics.attempts).toBeGreaterThanOrEqual(failures.length);
    expect(telemetry.logger.withEventId(3111).filter((record) => record.level === 'warn')).toHaveLength(1);
  });

  it('lists the installed contributions on the technology surface', async () => {
    const bare = await startTelemetryHost();
    const bareSurface = JSON.parse((await bare.get('/engine/technology-surfaces')).text);
    expect(
      bareSurface.find((entry: { id: string }) => entry.id === 'observability.opentelemetry').metadata
        .contributions,
    ).toEqual([]);
    await closeTelemetryHosts();

    const withPack = await startTelemetryHost({
      setup: (builder) => addObservabilityContribution(builder, { id: 3112, platform: 'Other Cloud' }),
    });
    const surface = JSON.parse((await withPack.get('/engine/technology-surfaces')).text);
    expect(
      surface.find((entry: { id: string }) => entry.id === 'observability.opentelemetry').metadata
        .contributions,
    ).toEqual([{ id: 3112, platform: 'Other Cloud' }]);
  });

  it('lists a contribution registered after addOpenTelemetry on the surface and in the started record (3010)', async () => {
    const telemetry = await startTelemetryHost({
      afterOpenTelemetry: (builder) =>
        addObservabilityContribution(builder, { id: 3115, platform: 'Late Cloud' }),
    });
    const surface = JSON.parse((await telemetry.get('/engine/technology-surfaces')).text);
    expect(
      surface.find((entry: { id: string }) => entry.id === 'observability.opentelemetry').metadata
        .contributions,
    ).toEqual([{ id: 3115, platform: 'Late Cloud' }]);
    const started = telemetry.logger.withEventId(3010);
    expect(started).toHaveLength(1);
    expect(started[0]?.message).toContain('Late Cloud (3115)');
    expect(started[0]).toMatchObject({ contributions: [{ id: 3115, platform: 'Late Cloud' }] });
  });

  it('reads the contributions from the installation each time, so a change to it changes the report', () => {
    const { builder } = createTestEngineBuilder();
    addOpenTelemetry(builder, { Prometheus: { Enabled: false } });
    addObservabilityContribution(builder, { id: 3117, platform: 'First Cloud' });
    const registry = contributionRegistry(builder);
    const engine = builder.build();
    const listed = () =>
      (
        engine.technologySurfaces().find((entry) => entry.id === 'observability.opentelemetry')?.metadata as {
          contributions: unknown;
        }
      ).contributions;
    expect(listed()).toEqual([{ id: 3117, platform: 'First Cloud' }]);
    registry.contributions.push({ id: 3118, platform: 'Second Cloud' });
    expect(listed()).toEqual([
      { id: 3117, platform: 'First Cloud' },
      { id: 3118, platform: 'Second Cloud' },
    ]);
    registry.contributions.splice(0, 1);
    expect(listed()).toEqual([{ id: 3118, platform: 'Second Cloud' }]);
  });

  it('refuses a bad id, a second registration of an id, and contributions without addOpenTelemetry', () => {
    const { builder } = createTestEngineBuilder();
    expect(() => addObservabilityContribution(builder, { id: 0, platform: 'X' })).toThrow(/positive integer/);
    expect(() => addObservabilityContribution(builder, { id: 3113, platform: ' ' })).toThrow(/platform name/);
    addObservabilityContribution(builder, { id: 3113, platform: 'X' });
    expect(() => addObservabilityContribution(builder, { id: 3113, platform: 'Y' })).toThrow(
      /already registered/,
    );
    expect(() => builder.build()).toThrow(/addOpenTelemetry\(builder\) was not called/);
  });

  it('a factory that throws is logged with the pack id and the SDK starts without it', async () => {
    const telemetry = await startTelemetryHost({
      setup: (builder) =>
        addObservabilityContribution(builder, {
          id: 3114,
          platform: 'Broken Cloud',
          spanExporters: () => {
            throw new Error('no credentials found');
          },
        }),
    });
    expect((await telemetry.get('/metrics')).status).toBe(200);
    expect(telemetry.logger.withEventId(3114).map((record) => record.message)).toEqual([
      expect.stringContaining('registered'),
      expect.stringContaining('no credentials found'),
    ]);
  });
});
