import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startFixture, type FixtureProcess } from '@corekit/testing/child-process';
import { startOtlpReceiver, type OtlpReceiver } from '@corekit/testing/fakes/otlp/otlp-receiver';
import { freePort } from '@corekit/testing/network-helpers';
import { pollUntil } from '@corekit/testing/poll-until';
import { loadCatalog } from './catalog';
import { generateHost } from './generate';

// A generated web host as a process (`src/main.ts` through tsx, the @corekit packages from the workspace
// sources): it answers its metrics route and pushes OTLP to a local receiver that decodes the OTLP protobuf.
jest.setTimeout(120_000);

const packageDirectory = path.resolve(__dirname, '..');
const fixtures = path.join(__dirname, 'test-fixtures');
let root = '';
let receiver: OtlpReceiver;
let fixture: FixtureProcess | undefined;

beforeAll(async () => {
  root = mkdtempSync(path.join(fixtures, 'generated-telemetry-'));
  generateHost(
    { directory: path.join(root, 'orders-service'), host: 'web', probes: ['http'], packs: [], targets: [] },
    loadCatalog(),
  );
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  if (fixture && fixture.child.exitCode === null) {
    fixture.child.kill('SIGTERM');
    await fixture.exited;
  }
  await receiver?.close();
  rmSync(root, { recursive: true, force: true });
});

it('answers /metrics and exports spans, metrics and logs over OTLP with its resource attributes', async () => {
  const port = await freePort();
  fixture = startFixture(
    packageDirectory,
    path.relative(fixtures, path.join(root, 'orders-service/src/main.ts')),
    {
      NODE_ENV: 'development',
      COREKIT_DEBUG: '',
      PORT: String(port),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BLRP_SCHEDULE_DELAY: '200',
      OTEL_RESOURCE_ATTRIBUTES: 'team=orders',
    },
  );
  await fixture.waitForLine('"eventId":2010', 60_000);
  const base = `http://127.0.0.1:${port}`;
  expect((await fetch(`${base}/health/live`)).status).toBe(200);
  expect((await fetch(`${base}/engine`)).status).toBe(200);
  const metrics = await fetch(`${base}/metrics`);
  expect(metrics.status).toBe(200);
  const text = await metrics.text();
  expect(text).toMatch(/^corekit_engine_runtime_transitions_total\{transition="Started"/m);
  expect(text).toMatch(/^http_server_request_duration_count\{[^}]*http_route="\/health\/live"/m);

  const spans = await pollUntil(
    async () => receiver.spans.filter((span) => span.name === 'GET /engine'),
    (found) => found.length > 0,
    { timeoutMs: 30_000 },
  );
  expect(spans[0]).toMatchObject({
    kind: 2,
    scope: '@corekit/web-host',
    attributes: expect.objectContaining({ 'http.route': '/engine', 'http.response.status_code': 200 }),
    resource: expect.objectContaining({
      'service.name': 'orders-service',
      'deployment.environment.name': 'development',
      team: 'orders',
      'service.instance.id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    }),
  });
  const pushed = await pollUntil(
    async () => receiver.metrics.map((metric) => metric.name),
    (names) =>
      names.includes('http.server.request.duration') && names.includes('corekit.engine.dependency.checks'),
    { timeoutMs: 30_000 },
  );
  expect(pushed).toEqual(
    expect.arrayContaining(['http.server.request.duration', 'corekit.engine.dependency.checks']),
  );
  const started = await pollUntil(
    async () => receiver.logRecords.filter((record) => record.attributes['event.id'] === 2001),
    (found) => found.length > 0,
    { timeoutMs: 30_000 },
  );
  expect(started[0]?.resource['service.name']).toBe('orders-service');
  expect(receiver.exports.every((entry) => entry.transport === 'http/protobuf')).toBe(true);

  fixture.child.kill('SIGTERM');
  expect(await fixture.exited).toBe(0);
});
