import { createMemoryLogger } from '@corekit/engine-core';
import type { WebHost } from '@corekit/web-host';
import { createSampleHost } from './sample-host';
import { testDataDirectory } from './test-support/test-data-directory';

const dataDirectory = testDataDirectory();

// Each sample host starts its own OpenTelemetry SDK (addOpenTelemetry) and stops it when it closes.
let host: WebHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function scrape(): Promise<{ status: number; contentType: string; text: string }> {
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    dataDirectory,
    environment: {},
    logger: createMemoryLogger(),
  });
  host = sample.host;
  const { port } = await sample.host.listen();
  // Readiness was computed at start; one more round makes every check run at least twice.
  await (sample.host.engine as unknown as { refreshDependencies(): Promise<void> }).refreshDependencies();
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

/** The value of the sample line `name{...labels...} value` whose labels include every one of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{.*\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => given.includes(`${key}="${value}"`)))
      return Number(match[3]);
  }
  return undefined;
}

describe('/metrics (addOpenTelemetry: the Prometheus route on the host port)', () => {
  it('serves the engine counters in the Prometheus text format', async () => {
    const { status, contentType, text } = await scrape();
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/plain/);
    expect(text).toMatch(/^# TYPE corekit_engine_dependency_checks_total counter$/m);
    expect(
      sample(text, 'corekit_engine_dependency_checks_total', { kind: 'Http', outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'corekit_engine_runtime_transitions_total', { transition: 'Started' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('serves the dependency-check duration histogram with one observation per check', async () => {
    const { text } = await scrape();
    expect(text).toMatch(/^# TYPE corekit_dependency_check_duration histogram$/m);
    const checks = sample(text, 'corekit_engine_dependency_checks_total', {
      kind: 'Http',
      outcome: 'completed',
    });
    const observations = sample(text, 'corekit_dependency_check_duration_count', {
      kind: 'Http',
      outcome: 'completed',
    });
    expect(observations).toBeGreaterThanOrEqual(2);
    expect(observations).toBe(checks);
    expect(sample(text, 'corekit_dependency_check_duration_bucket', { le: '+Inf' })).toBeGreaterThanOrEqual(
      2,
    );
  });
});
