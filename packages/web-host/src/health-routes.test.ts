import { healthReportSchema, type EngineBuilder } from '@corekit/abstractions';
import type { IncomingMessage } from 'node:http';
import { closeTestHosts, controlledDependency, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

const showAll = { Engine: { Web: { Health: { ShowDetails: 'Always' } } } };
const summaryKeys = ['checkedAtUtc', 'duration', 'durationMs', 'status'];

describe('health routes (spec 3.1)', () => {
  it('a Started runtime with healthy dependencies answers 200 Healthy on all three routes, with a valid 2.1 report', async () => {
    const test = await startTestHost({
      configuration: showAll,
      setup: (builder) => builder.addDependencyHealthContributor(controlledDependency('db', true)),
    });
    for (const path of ['/health', '/health/live', '/health/ready']) {
      const { status, body, headers } = await test.request(path);
      expect(status).toBe(200);
      expect(body.status).toBe('Healthy');
      expect(headers.get('cache-control')).toBe('no-store');
      expect(healthReportSchema.safeParse(body).success).toBe(true);
      expect(body.dependencies.map((entry: { id: string }) => entry.id)).toEqual(['db']);
    }
  });

  it('answers HEAD with the status code and no body, and ignores a query string', async () => {
    const test = await startTestHost({ configuration: showAll });
    const head = await fetch(`${test.base}/health/ready`, { method: 'HEAD' });
    expect([head.status, await head.text(), Number(head.headers.get('content-length')) > 0]).toEqual([
      200,
      '',
      true,
    ]);
    const withQuery = await test.request('/health/live?probe=kubelet');
    expect([withQuery.status, withQuery.body.status]).toEqual([200, 'Healthy']);
  });

  it('during startup, liveness is 200 Healthy and readiness 503 Unhealthy', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { createEngineBuilder, createMemoryLogger } = await import('@corekit/engine-core');
    const { createWebHost } = await import('./index');
    const builder = createEngineBuilder({
      environment: {},
      logger: createMemoryLogger(),
      configuration: showAll,
      contentRoot: __dirname,
    });
    builder.addModule({ id: 'slow', version: '1.0.0', start: () => gate });
    const host = createWebHost(builder, { port: 0, handleSignals: false });
    const listening = host.listen();
    while (host.engine.state !== 'Starting') await new Promise((resolve) => setTimeout(resolve, 5));
    const port = (host.server!.address() as { port: number }).port;
    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect([live.status, ((await live.json()) as { status: string }).status]).toEqual([200, 'Healthy']);
    const readyBody = (await ready.json()) as { status: string; runtime: { state: string } };
    expect([ready.status, readyBody.status, readyBody.runtime.state]).toEqual([503, 'Unhealthy', 'Starting']);
    release();
    await listening;
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    await host.close();
  });

  it('/health/startup is 503 while Starting, 200 once Started whatever the dependencies say, 503 when the start failed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { createEngineBuilder, createMemoryLogger } = await import('@corekit/engine-core');
    const { createWebHost } = await import('./index');
    const builder = createEngineBuilder({
      environment: {},
      logger: createMemoryLogger(),
      configuration: showAll,
      contentRoot: __dirname,
    });
    builder.addModule({ id: 'slow', version: '1.0.0', start: () => gate });
    builder.addDependencyHealthContributor(
      controlledDependency('db', true, { status: 'Unhealthy', description: 'down' }),
    );
    const host = createWebHost(builder, { port: 0, handleSignals: false });
    const listening = host.listen();
    while (host.engine.state !== 'Starting') await new Promise((resolve) => setTimeout(resolve, 5));
    const url = `http://127.0.0.1:${(host.server!.address() as { port: number }).port}/health/startup`;
    const during = await fetch(url);
    const duringBody = (await during.json()) as { status: string; runtime: { state: string } };
    expect([during.status, duringBody.status, duringBody.runtime.state]).toEqual([
      503,
      'Unhealthy',
      'Starting',
    ]);
    expect(healthReportSchema.safeParse(duringBody).success).toBe(true);
    release();
    await listening;
    const after = await fetch(url);
    const afterBody = (await after.json()) as { status: string; dependencies?: unknown };
    expect([after.status, afterBody.status, afterBody.dependencies]).toEqual([200, 'Healthy', undefined]);
    expect((await fetch(url.replace('startup', 'ready'))).status).toBe(503);
    await host.close();

    const failed = await startTestHost({
      configuration: showAll,
      setup: (failing) =>
        failing.addModule({
          id: 'broken',
          version: '1.0.0',
          start: () => {
            throw new Error('boom');
          },
        }),
      host: { exitOnStartFailure: false },
    });
    const answer = await failed.request('/health/startup');
    expect([answer.status, answer.body.status, answer.body.reasons]).toEqual([
      503,
      'Unhealthy',
      ['the runtime failed to start'],
    ]);
  });

  it('readiness stays 503 during the StartupReadinessDelay window and turns 200 when it ends', async () => {
    const test = await startTestHost({
      configuration: { Engine: { ...showAll.Engine, FailurePolicy: { StartupReadinessDelay: '00:00:30' } } },
    });
    const during = await test.request('/health/ready');
    expect([during.status, during.body.activeWindow]).toEqual([503, 'StartupReadinessDelay']);
    expect(during.body.activeWindowEndsAtUtc).toBe(new Date(test.clock.now() + 30_000).toISOString());
    expect((await test.request('/health/live')).status).toBe(200);
    test.clock.advance(30_000);
    const after = await test.request('/health/ready');
    expect([after.status, after.body.status]).toEqual([200, 'Healthy']);
  });

  it('a required dependency that is Unhealthy makes readiness 503 and liveness 200 Degraded', async () => {
    const test = await startTestHost({
      configuration: showAll,
      setup: (builder) =>
        builder.addDependencyHealthContributor(
          controlledDependency('db', true, {
            status: 'Unhealthy',
            error: { code: 'REFUSED', message: 'refused' },
          }),
        ),
    });
    const ready = await test.request('/health/ready');
    expect([ready.status, ready.body.status]).toEqual([503, 'Unhealthy']);
    expect(ready.body.dependencies[0]).toMatchObject({
      id: 'db',
      status: 'Unhealthy',
      error: { code: 'REFUSED' },
    });
    const live = await test.request('/health/live');
    expect([live.status, live.body.status]).toEqual([200, 'Degraded']);
    const overall = await test.request('/health');
    expect([overall.status, overall.body.status]).toEqual([503, 'Unhealthy']);
  });

  it('an optional dependency that is Unhealthy, or a required one that is Degraded, makes readiness 200 Degraded', async () => {
    const test = await startTestHost({
      configuration: showAll,
      setup: (builder) => {
        builder.addDependencyHealthContributor(controlledDependency('cache', false, { status: 'Unhealthy' }));
        builder.addDependencyHealthContributor(controlledDependency('db', true, { status: 'Degraded' }));
      },
    });
    const ready = await test.request('/health/ready');
    expect([ready.status, ready.body.status]).toEqual([200, 'Degraded']);
  });

  it('a Failed runtime answers 503 on liveness and readiness and reports restartAvailableAtUtc', async () => {
    const test = await startTestHost({
      configuration: showAll,
      setup: (builder) =>
        builder.addModule({
          id: 'broken',
          version: '1.0.0',
          start: () => {
            throw new Error('cannot open the ledger');
          },
        }),
    });
    const live = await test.request('/health/live');
    expect([live.status, live.body.status, live.body.runtime.state]).toEqual([503, 'Unhealthy', 'Failed']);
    expect(live.body.runtime.lastFailure).toMatchObject({
      moduleId: 'broken',
      message: 'cannot open the ledger',
    });
    expect(live.body.restartAvailableAtUtc).toBe(new Date(test.clock.now() + 10_000).toISOString());
    expect((await test.request('/health/ready')).status).toBe(503);
  });

  it('during the shutdown drain readiness is 503 at once, liveness 200 until ShutdownLivenessGracePeriod ends, then 503', async () => {
    const test = await startTestHost({
      configuration: { Engine: { ...showAll.Engine, FailurePolicy: { ShutdownLivenessGracePeriod: '10s' } } },
    });
    test.host.engine.beginShutdown();
    expect((await test.request('/health/ready')).status).toBe(503);
    const live = await test.request('/health/live');
    expect([live.status, live.body.status, live.body.activeWindow]).toEqual([
      200,
      'Healthy',
      'ShutdownLivenessGracePeriod',
    ]);
    test.clock.advance(10_000);
    const expired = await test.request('/health/live');
    expect([expired.status, expired.body.status]).toEqual([503, 'Unhealthy']);
  });

  it('a Stopped runtime answers 503 on liveness', async () => {
    const test = await startTestHost({ configuration: showAll });
    await test.host.engine.stop();
    const live = await test.request('/health/live');
    expect([live.status, live.body.runtime.state]).toEqual([503, 'Stopped']);
  });
});

describe('Engine:Web:Health:ShowDetails and the authorize hook', () => {
  const unhealthy = (builder: EngineBuilder) =>
    builder.addDependencyHealthContributor(
      controlledDependency('db', true, {
        status: 'Unhealthy',
        error: { code: 'AUTH', message: 'password rejected' },
      }),
    );
  const byHeader = (request: IncomingMessage) => request.headers.authorization === 'Bearer operator';

  it('by default (WhenAuthorized) and with no hook, every caller gets the status only, never the details', async () => {
    const test = await startTestHost({ setup: unhealthy });
    for (const path of ['/health', '/health/live', '/health/ready']) {
      const { body } = await test.request(path, { headers: { authorization: 'Bearer operator' } });
      expect(Object.keys(body).sort()).toEqual(summaryKeys);
    }
    const ready = await test.request('/health/ready');
    expect([ready.status, ready.body.status]).toEqual([503, 'Unhealthy']);
    expect(ready.text).not.toContain('password rejected');
  });

  it('WhenAuthorized shows details only to requests the hook allows', async () => {
    const test = await startTestHost({ setup: unhealthy, host: { authorize: byHeader } });
    const allowed = await test.request('/health/ready', { headers: { authorization: 'Bearer operator' } });
    expect(allowed.body.dependencies[0].id).toBe('db');
    const denied = await test.request('/health/ready', { headers: { authorization: 'Bearer intruder' } });
    expect(Object.keys(denied.body).sort()).toEqual(summaryKeys);
    expect(denied.status).toBe(503);
  });

  it('Never hides details even from authorized requests; Always shows them to everyone', async () => {
    const never = await startTestHost({
      setup: unhealthy,
      configuration: { Engine: { Web: { Health: { ShowDetails: 'Never' } } } },
      host: { authorize: () => true },
    });
    expect(Object.keys((await never.request('/health')).body).sort()).toEqual(summaryKeys);
    const always = await startTestHost({ setup: unhealthy, configuration: showAll });
    expect((await always.request('/health')).body.reasons).toEqual(['required dependency db is Unhealthy']);
  });

  it('a hook that throws counts as denied and is logged', async () => {
    const test = await startTestHost({
      setup: unhealthy,
      host: {
        authorize: () => {
          throw new Error('token service down');
        },
      },
    });
    const { body } = await test.request('/health/ready');
    expect(Object.keys(body).sort()).toEqual(summaryKeys);
    expect(
      test.logger.records.some(
        (record) => record.eventId === 2015 && String(record.message).includes('token service down'),
      ),
    ).toBe(true);
  });

  it('an unknown ShowDetails value fails at startup naming the full key', async () => {
    await expect(
      startTestHost({ configuration: { Engine: { Web: { Health: { ShowDetails: 'Sometimes' } } } } }),
    ).rejects.toThrow(/Engine:Web:Health:ShowDetails/);
  });
});
