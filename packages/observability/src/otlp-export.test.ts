import { startOtlpReceiver, type OtlpReceiver } from '@corekit/testing/fakes/otlp/otlp-receiver';
import { closeTelemetryHosts, startTelemetryHost } from './test-support/telemetry-host';

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await closeTelemetryHosts();
  await receiver?.close();
  receiver = undefined;
});

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;

describe('OTLP export (a local receiver decoding the OTLP protobuf definitions)', () => {
  it('pushes spans, metrics and logs over OTLP/HTTP protobuf from the OTEL_* variables; the stop flushes them', async () => {
    receiver = await startOtlpReceiver();
    const telemetry = await startTelemetryHost({
      environmentName: 'production-eu',
      environment: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=otlp-key-never-logged',
        OTEL_SERVICE_NAME: 'orders-api',
        OTEL_RESOURCE_ATTRIBUTES: 'team=payments,service.version=2.0.1',
      },
    });
    expect((await telemetry.get('/health/ready')).status).toBe(200);
    expect((await telemetry.get('/engine/status', { traceparent })).status).toBe(200);
    await telemetry.host.close();

    // Health routes record the duration histogram but no span (polled constantly, cached answers).
    expect(receiver.spans.map((span) => span.name)).not.toContain('GET /health/ready');
    const server = receiver.spans.find((span) => span.name === 'GET /engine/status');
    expect(server).toMatchObject({
      kind: 2,
      traceId,
      parentSpanId: '00f067aa0ba902b7',
      scope: '@corekit/web-host',
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/engine/status',
        'http.response.status_code': 200,
        'url.scheme': 'http',
      },
    });
    expect(server?.resource).toMatchObject({
      'service.name': 'orders-api',
      'service.version': '2.0.1',
      'deployment.environment.name': 'production-eu',
      team: 'payments',
      'service.instance.id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    const duration = receiver.metrics.find((metric) => metric.name === 'http.server.request.duration');
    expect(duration).toMatchObject({ type: 'histogram', unit: 's', scope: '@corekit/web-host' });
    expect(duration?.dataPoints).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          count: 1,
          attributes: expect.objectContaining({
            'http.route': '/health/ready',
            'http.response.status_code': 200,
          }),
        }),
      ]),
    );
    const transitions = receiver.metrics.find(
      (metric) => metric.name === 'corekit.engine.runtime.transitions',
    );
    expect(transitions?.type).toBe('sum');
    expect(transitions?.resource['service.name']).toBe('orders-api');

    // The engine's JSON records also travel as OpenTelemetry log records (the started record, event 3010).
    const started = receiver.logRecords.find((record) => record.attributes['event.id'] === 3010);
    expect(started).toMatchObject({ severityText: 'INFO', scope: 'corekit.engine' });
    expect(receiver.exports.every((entry) => entry.transport === 'http/protobuf')).toBe(true);
    expect(new Set(receiver.exports.map((entry) => entry.path))).toEqual(
      new Set(['/v1/traces', '/v1/metrics', '/v1/logs']),
    );
    expect(receiver.exports.every((entry) => entry.headers['x-api-key'] === 'otlp-key-never-logged')).toBe(
      true,
    );
    expect(telemetry.logger.text()).not.toContain('otlp-key-never-logged');
    expect(telemetry.logger.withEventId(3013)).toEqual([expect.objectContaining({ level: 'info' })]);
  });

  it('pushes over OTLP/gRPC with the section configured, headers as metadata', async () => {
    receiver = await startOtlpReceiver({ grpc: true });
    const telemetry = await startTelemetryHost({
      openTelemetry: {
        ServiceName: 'billing',
        Otlp: {
          Endpoint: receiver.grpcUrl,
          Protocol: 'grpc',
          Headers: { 'x-tenant': 'grpc-header-secret' },
          Logs: false,
        },
      },
    });
    expect((await telemetry.get('/engine')).status).toBe(200);
    await telemetry.host.close();
    expect(receiver.spans.map((span) => span.name)).toContain('GET /engine');
    expect(receiver.metrics.map((metric) => metric.name)).toContain('http.server.request.duration');
    expect(receiver.logRecords).toEqual([]);
    expect(new Set(receiver.exports.map((entry) => `${entry.transport} ${entry.signal}`))).toEqual(
      new Set(['grpc traces', 'grpc metrics']),
    );
    expect(receiver.exports[0]?.headers['x-tenant']).toBe('grpc-header-secret');
    expect(telemetry.logger.text()).not.toContain('grpc-header-secret');
  });

  it('pushes OTLP/JSON when OTEL_EXPORTER_OTLP_PROTOCOL asks for it', async () => {
    receiver = await startOtlpReceiver();
    const telemetry = await startTelemetryHost({
      environment: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
      },
    });
    await telemetry.get('/engine', { traceparent });
    await telemetry.host.close();
    expect(receiver.spans.find((span) => span.name === 'GET /engine')?.traceId).toBe(traceId);
    expect(receiver.exports.every((entry) => entry.transport === 'http/json')).toBe(true);
    expect(receiver.exports.map((entry) => entry.signal)).not.toContain('metrics');
  });

  it('logs a failed export (event 3012) without the header values, and the engine keeps serving', async () => {
    receiver = await startOtlpReceiver();
    receiver.failWith(400);
    const telemetry = await startTelemetryHost({
      environment: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20t0ken-value',
      },
      // Short export timeouts: the exporters retry a failed batch after the SDK has shut down, until then.
      openTelemetry: {
        MetricExportIntervalMilliseconds: 500,
        Otlp: { Logs: false, TimeoutMilliseconds: 300 },
      },
    });
    expect((await telemetry.get('/health/ready')).status).toBe(200);
    await telemetry.host.close();
    const failures = telemetry.logger.withEventId(3012);
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(failures[0]).toMatchObject({ level: 'warn' });
    expect(String(failures[0]?.message)).toContain(`${receiver.url}/v1/`);
    expect(telemetry.logger.text()).not.toContain('t0ken-value');
  });
});
