import { pollUntil, startOtlpReceiver, type OtlpReceiver } from '@corekit/testing';
import { sampleHostStarter } from './test-support/sample-starter';

const startSample = sampleHostStarter();

// The sample adds a hosted-platform pack only when its section is configured: Honeycomb here, pointed at a
// local OTLP receiver (the pack sends x-honeycomb-team; the receiver decodes the protobuf it gets).
const honeycombEventId = 3116;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('hosted-platform telemetry in the sample (Engine:Observability:<Platform>)', () => {
  it('adds the Honeycomb pack when its section is set: spans reach the OTLP endpoint with its key, and 3116 is logged', async () => {
    receiver = await startOtlpReceiver();
    const { logger, base, close } = await startSample({
      Engine__Observability__Honeycomb__Endpoint: receiver.url,
      Engine__Observability__Honeycomb__ApiKey: 'hc-sample-key',
    });
    expect(logger.records.some((record) => record.eventId === honeycombEventId)).toBe(true);
    // The installed pack is listed wherever the docs say: the technology surface and the started record (3010).
    const surfaces = (await (await fetch(`${base}/engine/technology-surfaces`)).json()) as Array<{
      id: string;
      metadata: { contributions: unknown };
    }>;
    expect(
      surfaces.find((entry) => entry.id === 'observability.opentelemetry')?.metadata.contributions,
    ).toEqual([{ id: honeycombEventId, platform: 'Honeycomb' }]);
    const started = logger.records.filter((record) => record.eventId === 3010);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ contributions: [{ id: honeycombEventId, platform: 'Honeycomb' }] });
    expect(started[0]?.message).toContain(`Honeycomb (${honeycombEventId})`);
    expect((await fetch(`${base}/engine/dependencies`)).status).toBe(200);
    // Stopping the host flushes the batched spans within the stop budget.
    await close();
    const traces = await pollUntil(
      async () => receiver!.exports.filter((received) => received.signal === 'traces'),
      (found) => found.length > 0,
      { timeoutMs: 20_000 },
    );
    expect(traces[0].headers['x-honeycomb-team']).toBe('hc-sample-key');
    const span = receiver.spans.find((received) => received.attributes['http.route'] !== undefined);
    expect(span?.resource['service.name']).toBe('corekit-sample-host');
    // The key never reaches a log record.
    expect(JSON.stringify(logger.records)).not.toContain('hc-sample-key');
  });

  it('adds no platform pack without a section', async () => {
    const { logger } = await startSample({});
    const platformIds = [3111, 3112, 3113, 3114, 3115, 3116, 3117, 3119, 3154];
    expect(logger.records.filter((record) => platformIds.includes(record.eventId ?? 0))).toEqual([]);
  });

  it('refuses a misspelled key of a configured platform section at startup, naming the closest key', async () => {
    // A host that does not own the process (handleSignals: false) keeps listening and shows the failed start.
    const { logger, base } = await startSample({
      Engine__Observability__Honeycomb__ApiKey: 'hc-sample-key',
      Engine__Observability__Honeycomb__MetricsDatset: 'orders',
    });
    const failure = logger.records.find((record) => record.errorCode === 'CONFIGURATION_INVALID');
    expect(failure?.message).toMatch(/Engine:Observability:Honeycomb:MetricsDatset[\s\S]*MetricsDataset/);
    // The start was refused before the runtime started: startup and readiness say so.
    expect((await fetch(`${base}/health/startup`)).status).toBe(503);
    expect((await fetch(`${base}/health/ready`)).status).toBe(503);
  });
});
