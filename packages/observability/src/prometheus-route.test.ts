import type { PackHistogram } from '@corekit/abstractions';
import { closeTelemetryHosts, prometheusSample, startTelemetryHost } from './test-support/telemetry-host';

afterEach(closeTelemetryHosts);

describe('the Prometheus route (served through the pack contract)', () => {
  it('serves the engine counters, the HTTP server duration histogram and the resource in the text format', async () => {
    const telemetry = await startTelemetryHost({
      environmentName: 'staging',
      openTelemetry: { ServiceName: 'orders-api', ServiceVersion: '1.4.2' },
    });
    expect((await telemetry.get('/health/ready')).status).toBe(200);
    expect((await telemetry.get('/engine/nonexistent-surface')).status).toBe(404);
    const { status, type, text } = await telemetry.get('/metrics');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      prometheusSample(text, 'corekit_engine_runtime_transitions_total', { transition: 'Started' }),
    ).toBe(1);
    expect(text).toMatch(/^# TYPE http_server_request_duration histogram$/m);
    expect(
      prometheusSample(text, 'http_server_request_duration_count', {
        http_request_method: 'GET',
        http_response_status_code: '200',
        http_route: '/health/ready',
      }),
    ).toBe(1);
    // A request no route matched carries no http.route (an unbounded set of paths would be a cardinality bomb).
    const unmatched = text
      .split('\n')
      .filter((line) => line.startsWith('http_server_request_duration_count') && line.includes('"404"'));
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]).not.toContain('http_route');
    const target = text.split('\n').find((line) => line.startsWith('target_info{')) ?? '';
    expect(target).toContain('service_name="orders-api"');
    expect(target).toContain('service_version="1.4.2"');
    expect(target).toContain('deployment_environment_name="staging"');
    expect(target).toMatch(/service_instance_id="[0-9a-f-]{36}"/);
    // No host, process or owner detector: nothing about the machine is published.
    expect(target).not.toMatch(/host_name|process_pid|process_command|process_owner/);
  });

  it("aggregates a pack histogram with the buckets it advised (builder.meter.histogram's { unit, buckets })", async () => {
    let histogram: PackHistogram | undefined;
    const telemetry = await startTelemetryHost({
      setup: (builder) => {
        histogram = builder.meter.histogram('corekit.test.widget_duration', 'widget time', {
          unit: 's',
          buckets: [0.25, 2],
        });
      },
    });
    histogram!.record(0.5, { outcome: 'made' });
    const { text } = await telemetry.get('/metrics');
    const bounds = text
      .split('\n')
      .filter((line) => line.startsWith('corekit_test_widget_duration_bucket{'))
      .map((line) => /le="([^"]+)"/.exec(line)?.[1]);
    expect(bounds).toEqual(['0.25', '2', '+Inf']);
    expect(
      prometheusSample(text, 'corekit_test_widget_duration_bucket', { outcome: 'made', le: '0.25' }),
    ).toBe(0);
    expect(prometheusSample(text, 'corekit_test_widget_duration_bucket', { outcome: 'made', le: '2' })).toBe(
      1,
    );
  });

  it('follows the host /engine exposure by default: guarded under NODE_ENV=production, Open serves anyone', async () => {
    const production = { NODE_ENV: 'production' };
    const guarded = await startTelemetryHost({ environment: production, authorize: () => false });
    expect((await guarded.get('/metrics')).status).toBe(403);
    expect((await guarded.get('/engine')).status).toBe(403);

    const operator = await startTelemetryHost({
      environment: production,
      authorize: (request) => request.headers.authorization === 'Bearer operator',
    });
    expect((await operator.get('/metrics', { authorization: 'Bearer operator' })).status).toBe(200);
    await closeTelemetryHosts();

    const opened = await startTelemetryHost({
      environment: production,
      openTelemetry: { Prometheus: { Exposure: 'Open' } },
    });
    expect((await opened.get('/metrics')).status).toBe(200);
    await closeTelemetryHosts();

    const development = await startTelemetryHost({ environment: {} });
    expect((await development.get('/metrics')).status).toBe(200);
    await closeTelemetryHosts();

    const required = await startTelemetryHost({
      environment: {},
      authorize: () => false,
      openTelemetry: { Prometheus: { Exposure: 'RequireAuthorization', Path: '/observability/metrics' } },
    });
    expect((await required.get('/observability/metrics')).status).toBe(403);
    expect((await required.get('/metrics')).status).toBe(404);
  });

  it('reports what is installed as a technology surface, and the off switch turns it all off', async () => {
    const on = await startTelemetryHost();
    const surfaces = JSON.parse((await on.get('/engine/technology-surfaces')).text);
    expect(surfaces).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 'observability.opentelemetry',
          metadata: expect.objectContaining({ state: 'Started', prometheusPath: '/metrics', otlp: [] }),
        }),
      ]),
    );
    await closeTelemetryHosts();

    const off = await startTelemetryHost({ environment: { OTEL_SDK_DISABLED: 'true' } });
    const scraped = await off.get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.text).toBe('# OpenTelemetry is off: no metrics\n');
    expect(off.logger.withEventId(3011)).toHaveLength(1);
    const offSurfaces = JSON.parse((await off.get('/engine/technology-surfaces')).text);
    expect(offSurfaces).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ metadata: expect.objectContaining({ state: 'Disabled' }) }),
      ]),
    );
  });
});
