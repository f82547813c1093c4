import path from 'node:path';
import { startFixture as startPackageFixture, type FixtureProcess } from '@corekit/testing/child-process';

const startFixture = (fixture: string, environment?: Record<string, string>) =>
  startPackageFixture(path.resolve(__dirname, '..'), fixture, environment);

async function startWebProcess(
  configuration: Record<string, unknown>,
): Promise<{ fixture: FixtureProcess; base: string }> {
  const fixture = startFixture('web-process.ts', { FIXTURE_CONFIGURATION: JSON.stringify(configuration) });
  const line = await fixture.waitForLine('"listening"');
  return { fixture, base: `http://127.0.0.1:${JSON.parse(line).port}` };
}

async function get(
  base: string,
  path: string,
): Promise<{ status: number; body: any; connection: string | null }> {
  const response = await fetch(`${base}${path}`);
  return {
    status: response.status,
    body: await response.json(),
    connection: response.headers.get('connection'),
  };
}

function policy(grace: string, drainTimeout = '30s') {
  return {
    Engine: { FailurePolicy: { ShutdownLivenessGracePeriod: grace }, Web: { DrainTimeout: drainTimeout } },
  };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('graceful shutdown of the web host (child process, real signals)', () => {
  it('on SIGTERM: readiness 503 at once, liveness 200, new work refused, the in-flight request finishes, exit 0', async () => {
    const { fixture, base } = await startWebProcess(policy('10s'));
    const inFlight = fetch(`${base}/api/slow?ms=1500`).then(async (response) => ({
      status: response.status,
      body: await response.json(),
    }));
    await fixture.waitForLine('slow-started');
    fixture.child.kill('SIGTERM');
    await fixture.waitForLine('Draining');

    const ready = await get(base, '/health/ready');
    expect([ready.status, ready.body.status, ready.connection]).toEqual([503, 'Unhealthy', 'close']);
    const live = await get(base, '/health/live');
    expect([live.status, live.body.status]).toEqual([200, 'Healthy']);
    const work = await get(base, '/engine/status');
    expect([work.status, work.body.code]).toEqual([503, 'HOST_SHUTTING_DOWN']);

    expect(await inFlight).toEqual({ status: 200, body: { done: true } });
    expect(await fixture.exited).toBe(0);
    const order = ['SIGTERM received', 'Draining', 'Drain completed', 'Runtime stopped', 'Host stopped'];
    const positions = order.map((text) => fixture.lines.findIndex((line) => line.includes(text)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('liveness turns 503 when the drain outlasts ShutdownLivenessGracePeriod, and the process still exits 0', async () => {
    const { fixture, base } = await startWebProcess(policy('300ms'));
    const inFlight = fetch(`${base}/api/slow?ms=2500`).then((response) => response.status);
    await fixture.waitForLine('slow-started');
    fixture.child.kill('SIGTERM');
    await fixture.waitForLine('Draining');
    expect((await get(base, '/health/live')).status).toBe(200);
    await sleep(600);
    const live = await get(base, '/health/live');
    expect([live.status, live.body.status]).toEqual([503, 'Unhealthy']);
    expect(await inFlight).toBe(200);
    expect(await fixture.exited).toBe(0);
  });

  it('cuts requests still in flight after Engine:Web:DrainTimeout and exits 0', async () => {
    const { fixture, base } = await startWebProcess(policy('10s', '500ms'));
    const inFlight = fetch(`${base}/api/slow?ms=20000`).then(
      (response) => response.status,
      () => 'cut',
    );
    await fixture.waitForLine('slow-started');
    fixture.child.kill('SIGTERM');
    expect(await inFlight).toBe('cut');
    expect(await fixture.exited).toBe(0);
    expect(fixture.lines.some((line) => line.includes('Drain cut'))).toBe(true);
  });

  it('SIGINT shuts down the same way', async () => {
    const { fixture, base } = await startWebProcess(policy('10s'));
    expect((await get(base, '/health/ready')).status).toBe(200);
    fixture.child.kill('SIGINT');
    expect(await fixture.exited).toBe(0);
    expect(fixture.lines.some((line) => line.includes('SIGINT received'))).toBe(true);
  });
});
