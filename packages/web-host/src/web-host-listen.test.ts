import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { freePort } from '@corekit/testing/network-helpers';
import { createWorkerHost } from '@corekit/worker-host';
import { createWebHost, type WebHost } from './index';

const hosts: WebHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function builder(configuration: Record<string, unknown> = {}) {
  return createEngineBuilder({
    configuration,
    environment: {},
    logger: createMemoryLogger(),
    contentRoot: __dirname,
  });
}

function host(...args: Parameters<typeof createWebHost>): WebHost {
  const created = createWebHost(...args);
  hosts.push(created);
  return created;
}

describe('port and composition', () => {
  it('takes the port from the port option, then Engine:Web:Port, then PORT', async () => {
    const [option, configured, environment] = [await freePort(), await freePort(), await freePort()];
    const fromOption = await host(builder({ Engine: { Web: { Port: configured } } }), {
      port: option,
      handleSignals: false,
      environment: { PORT: String(environment) },
    }).listen();
    expect(fromOption.port).toBe(option);
    const fromConfiguration = await host(builder({ Engine: { Web: { Port: configured } } }), {
      handleSignals: false,
      environment: { PORT: String(environment) },
    }).listen();
    expect(fromConfiguration.port).toBe(configured);
    const fromEnvironment = await host(builder(), {
      handleSignals: false,
      environment: { PORT: String(environment) },
    }).listen();
    expect(fromEnvironment).toEqual({ port: environment, url: `http://localhost:${environment}` });
    expect((await fetch(`http://127.0.0.1:${environment}/health/live`)).status).toBe(200);
  });

  it('an invalid Engine:Web:Port or PORT fails with the key named', async () => {
    expect(() => host(builder({ Engine: { Web: { Port: 70000 } } }), { handleSignals: false })).toThrow(
      /Engine:Web:Port/,
    );
    await expect(
      host(builder(), { handleSignals: false, environment: { PORT: 'eighty' } }).listen(),
    ).rejects.toThrow(/PORT must be an integer/);
  });

  it('binds the configured address', async () => {
    const created = host(builder({ Engine: { Web: { BindAddress: '127.0.0.1' } } }), {
      port: 0,
      handleSignals: false,
    });
    const { url } = await created.listen();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((created.server!.address() as { address: string }).address).toBe('127.0.0.1');
  });

  it('accepts the options form: createWebHost({ builder, port })', async () => {
    const { port } = await host({ builder: builder(), port: 0, handleSignals: false }).listen();
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
  });

  it('composes with a worker host: stopping the worker drains and closes the web host', async () => {
    const worker = createWorkerHost(builder(), { handleSignals: false });
    const web = createWebHost(worker, { port: 0 });
    const { port } = await web.listen();
    expect(worker.engine.state).toBe('Started');
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    expect(await worker.stop()).toBe(0);
    expect(web.server!.listening).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
  });

  it('a failed engine start ends the process by default: listener closed, report on stderr, exit 1', async () => {
    const exits: number[] = [];
    const reports: string[] = [];
    const strict = builder();
    strict.addModule({
      id: 'broken',
      version: '1.0.0',
      start: () => Promise.reject(new Error('no license')),
    });
    const web = host(strict, {
      port: 0,
      handleSignals: false,
      exitProcess: true,
      exit: (code) => void exits.push(code),
      reportStartupError: (text) => void reports.push(text),
    });
    await expect(web.listen()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(exits).toEqual([1]);
    expect(web.server?.listening).toBe(false);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('Startup failed: ENGINE_START_FAILED');
    expect(reports[0]).toContain('no license');
  });

  it('an unknown configuration key ends the process before the port opens', async () => {
    const exits: number[] = [];
    const reports: string[] = [];
    const misspelled = builder({ Engine: { FailurePolicy: { StartupReadinessDelays: '00:00:05' } } });
    const web = host(misspelled, {
      port: 0,
      handleSignals: false,
      exitProcess: true,
      exit: (code) => void exits.push(code),
      reportStartupError: (text) => void reports.push(text),
    });
    await expect(web.listen()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining('did you mean `StartupReadinessDelay`?'),
    });
    expect(exits).toEqual([1]);
    expect(web.server).toBeUndefined();
    expect(web.engine.state).toBe('Failed');
    expect(web.engine.status().lastFailure).toMatchObject({ phase: 'configuration', restartable: false });
    expect(reports[0]).toContain('Startup failed: CONFIGURATION_INVALID');
  });

  it("refuses new requests as soon as the shutdown begins, while the packs' stopping hooks still run", async () => {
    const stopping = builder();
    let release!: () => void;
    let hookRunning = false;
    stopping.addLifecycleHooks({
      id: 'slow-pack',
      stopping: () =>
        new Promise<void>((resolve) => {
          hookRunning = true;
          release = resolve;
        }),
    });
    const web = host(stopping, { port: 0, handleSignals: false });
    web.addRoute({
      method: 'get',
      path: '/api/ping',
      summary: 'pong',
      responses: { 200: { description: 'pong' } },
      handler: (_request, response) => void response.json({ pong: true }),
    });
    const { port } = await web.listen();
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/api/ping`)).status).toBe(200);
    const closing = web.close();
    while (!hookRunning) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await fetch(`${base}/api/ping`);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      503,
      'HOST_SHUTTING_DOWN',
    ]);
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect(web.engine.state).toBe('Stopping');
    release();
    await closing;
    expect(web.engine.state).toBe('Stopped');
  });

  it('keeps serving after a failed engine start with the exitOnStartFailure: false opt-in', async () => {
    const failing = builder();
    failing.addModule({
      id: 'broken',
      version: '1.0.0',
      start: () => {
        throw new Error('no license');
      },
    });
    const exits: number[] = [];
    const { port } = await host(failing, {
      port: 0,
      handleSignals: false,
      exitProcess: true,
      exitOnStartFailure: false,
      exit: (code) => void exits.push(code),
    }).listen();
    const status = (await (await fetch(`http://127.0.0.1:${port}/engine/status`)).json()) as {
      state: string;
      lastFailure: { message: string };
    };
    expect([status.state, status.lastFailure.message]).toEqual(['Failed', 'no license']);
    expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(503);
    expect(exits).toEqual([]);
  });
});
