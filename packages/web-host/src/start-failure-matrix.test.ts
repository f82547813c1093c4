import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoreError, type Engine, type ModuleDefinition } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { freePort, portIsFree } from '@corekit/testing/network-helpers';
import { pollUntil } from '@corekit/testing/poll-until';
import { createWorkerHost } from '@corekit/worker-host';
import { createWebHost, type WebHost } from './index';

/**
 * Each way a start can fail, on an embedded web host (it does not own the process: `handleSignals: false`), and
 * what then answers. The first row, a start that succeeds, shows the same requests answering otherwise.
 */

type Outcome =
  | { readonly kind: 'served'; readonly host: WebHost; readonly base: string }
  /** createWebHost (or the build it runs) threw: there is no host; `engine` when one was built first. */
  | { readonly kind: 'no-host'; readonly error: unknown; readonly engine?: Engine };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function builder(environment: Record<string, string> = {}, modules: ModuleDefinition[] = []) {
  const created = createEngineBuilder({ environment, logger: createMemoryLogger(), contentRoot: __dirname });
  for (const module of modules) created.addModule(module);
  return created;
}

function listenOn(server: Server, port = 0): Promise<number> {
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** An application route, so the gate has something to refuse. */
function withAppRoute(host: WebHost): WebHost {
  host.app.get('/api/ping', (_request, response) => void response.json({ pong: true }));
  return host;
}

/** Creates the host, listens on a free port on loopback; a failure anywhere becomes the outcome. */
async function served(create: () => WebHost): Promise<Outcome> {
  let host: WebHost;
  try {
    host = withAppRoute(create());
  } catch (error) {
    return { kind: 'no-host', error };
  }
  cleanups.push(() => host.close());
  const { port } = await host.listen();
  return { kind: 'served', host, base: `http://127.0.0.1:${port}` };
}

const embedded = { port: 0, bindAddress: '127.0.0.1', handleSignals: false } as const;

/** Builds the engine on `environment`; createWebHost refusing it is the outcome, accepting it an error. */
async function refusedHost(environment: Record<string, string>, accepted: string): Promise<Outcome> {
  const engine = builder(environment).build();
  try {
    createWebHost(engine, embedded);
  } catch (error) {
    return { kind: 'no-host', error, engine };
  }
  throw new Error(`createWebHost accepted ${accepted}`);
}

const hangingModule: ModuleDefinition = {
  id: 'hangs',
  version: '1.0.0',
  start: () => new Promise<void>(() => undefined),
};

const throwingModule: ModuleDefinition = {
  id: 'throws',
  version: '1.0.0',
  start: () => {
    throw Object.assign(new Error('the upstream refused the connection'), { code: 'UPSTREAM_REFUSED' });
  },
};

interface Row {
  readonly failure: string;
  readonly arrange: () => Promise<Outcome>;
  /** Status of each request; null when no host exists to ask. */
  readonly answers: {
    readonly ready: number;
    readonly live: number;
    readonly status: number;
    readonly app: number;
  } | null;
  readonly state: string;
  readonly lastFailure: { phase: string; code: string; restartable: boolean } | null;
  /** The code createWebHost or listen() threw, when one did. */
  readonly thrown?: string;
}

const matrix: Row[] = [
  {
    failure: 'none (the control row)',
    arrange: () => served(() => createWebHost(builder(), embedded)),
    answers: { ready: 200, live: 200, status: 200, app: 200 },
    state: 'Started',
    lastFailure: null,
  },
  {
    failure: 'an unknown key',
    arrange: () =>
      served(() =>
        createWebHost(builder({ Engine__FailurePolicy__StartupReadinessDelays: '00:00:05' }), embedded),
      ),
    answers: { ready: 503, live: 503, status: 200, app: 503 },
    state: 'Failed',
    lastFailure: { phase: 'configuration', code: 'CONFIGURATION_INVALID', restartable: false },
  },
  {
    failure: 'a bad value (bound when the engine is built)',
    arrange: () => served(() => createWebHost(builder({ Engine__Startup__Timeout: 'soon' }), embedded)),
    answers: null,
    state: 'none',
    lastFailure: null,
    thrown: 'CONFIGURATION_INVALID',
  },
  {
    failure: 'a bad value read by a module as it starts',
    arrange: () =>
      served(() => {
        const late = builder({ Engine__Late__Port: 'eighty' }, [
          {
            id: 'reads-late',
            version: '1.0.0',
            start: (context) => {
              const value = String(context.configuration.get('Engine:Late:Port'));
              if (!/^\d+$/.test(value)) {
                throw new CoreError(
                  'CONFIGURATION_INVALID',
                  `Engine:Late:Port must be an integer, got "${value}"`,
                );
              }
            },
          },
        ]);
        // Declares the key (a module that reads its section as it starts, not at registration).
        late.configuration.get('Engine:Late:Port');
        return createWebHost(late, embedded);
      }),
    answers: { ready: 503, live: 503, status: 200, app: 503 },
    state: 'Failed',
    lastFailure: { phase: 'module-start', code: 'CONFIGURATION_INVALID', restartable: false },
  },
  {
    failure: 'checkConfiguration() refusing a probe section without its probe',
    arrange: async () => {
      const outcome = await served(() => {
        const host = createWebHost(
          builder({ Engine__Observability__DependencyHealth__Redis__Dependencies__0__Id: 'cache' }),
          embedded,
        );
        expect(() => host.engine.checkConfiguration?.()).toThrow(/addRedisHealth\(builder\) was not called/);
        return host;
      });
      return outcome;
    },
    answers: { ready: 503, live: 503, status: 200, app: 503 },
    state: 'Failed',
    lastFailure: { phase: 'configuration', code: 'CONFIGURATION_INVALID', restartable: false },
  },
  {
    failure: 'the Engine:Web section refused',
    arrange: () => refusedHost({ Engine__Web__Port: '70000' }, 'Engine:Web:Port 70000'),
    answers: null,
    state: 'Failed',
    lastFailure: { phase: 'host-configuration', code: 'CONFIGURATION_INVALID', restartable: false },
    thrown: 'CONFIGURATION_INVALID',
  },
  {
    failure: 'Engine:Web:EngineRoutes:Exposure RequireAuthorization without an authorize hook',
    arrange: () =>
      refusedHost(
        { Engine__Web__EngineRoutes__Exposure: 'RequireAuthorization' },
        'RequireAuthorization without an authorize hook',
      ),
    answers: null,
    state: 'Failed',
    lastFailure: { phase: 'host-configuration', code: 'CONFIGURATION_INVALID', restartable: false },
    thrown: 'CONFIGURATION_INVALID',
  },
  {
    failure: 'the port in use (the host handler served by a server of the application)',
    arrange: async () => {
      const blocker = createServer();
      const port = await listenOn(blocker);
      cleanups.push(() => closeServer(blocker));
      const host = withAppRoute(createWebHost(builder(), { ...embedded, port }));
      cleanups.push(() => host.close());
      const error = await host.listen().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'HOST_PORT_IN_USE' });
      expect(host.server).toBeUndefined();
      // The application may still serve the host's handler on a server of its own: the gate answers there.
      const own = createServer(host.handler);
      const ownPort = await listenOn(own);
      cleanups.push(() => closeServer(own));
      return { kind: 'served', host, base: `http://127.0.0.1:${ownPort}` };
    },
    answers: { ready: 503, live: 503, status: 200, app: 503 },
    state: 'Failed',
    lastFailure: { phase: 'host-listen', code: 'HOST_PORT_IN_USE', restartable: false },
  },
  {
    failure: "a module's start throwing",
    arrange: () => served(() => createWebHost(builder({}, [throwingModule]), embedded)),
    answers: { ready: 503, live: 503, status: 200, app: 503 },
    state: 'Failed',
    lastFailure: { phase: 'module-start', code: 'UPSTREAM_REFUSED', restartable: true },
  },
  {
    failure: 'the startup timeout',
    arrange: () =>
      served(() => createWebHost(builder({ Engine__Startup__Timeout: '50ms' }, [hangingModule]), embedded)),
    answers: { ready: 503, live: 503, status: 200, app: 503 },
    state: 'Failed',
    lastFailure: { phase: 'module-start', code: 'ENGINE_START_TIMEOUT', restartable: true },
  },
];

async function statusOf(base: string, path: string): Promise<number> {
  const response = await fetch(`${base}${path}`);
  await response.arrayBuffer();
  return response.status;
}

describe('a web host after a failed start (embedded: it does not own the process)', () => {
  it.each(matrix.map((row) => [row.failure, row] as const))('%s', async (_failure, row) => {
    const outcome = await row.arrange();
    if (row.answers === null) {
      expect(outcome.kind).toBe('no-host');
      if (outcome.kind !== 'no-host') return;
      expect(outcome.error).toMatchObject({ code: row.thrown });
      expect(outcome.engine?.state ?? 'none').toBe(row.state);
      expect(outcome.engine?.status().lastFailure ?? null).toEqual(
        row.lastFailure ? expect.objectContaining(row.lastFailure) : null,
      );
      return;
    }
    expect(outcome.kind).toBe('served');
    if (outcome.kind !== 'served') return;
    const { host, base } = outcome;
    expect({
      ready: await statusOf(base, '/health/ready'),
      live: await statusOf(base, '/health/live'),
      status: await statusOf(base, '/engine/status'),
      app: await statusOf(base, '/api/ping'),
    }).toEqual(row.answers);
    expect(host.engine.state).toBe(row.state);
    const status = (await (await fetch(`${base}/engine/status`)).json()) as Record<string, unknown>;
    expect(status.state).toBe(row.state);
    expect(status.lastFailure).toEqual(row.lastFailure ? expect.objectContaining(row.lastFailure) : null);
    const snapshot = (await (await fetch(`${base}/engine/snapshot`)).json()) as {
      runtimeStory: { timeline: Array<{ kind: string; details?: Record<string, unknown> }> };
    };
    const failures = snapshot.runtimeStory.timeline.filter((entry) => entry.kind === 'failure');
    expect(failures.map((entry) => entry.details?.phase)).toEqual(
      row.lastFailure ? [row.lastFailure.phase] : [],
    );
    if (row.answers.app === 503) {
      const refused = await fetch(`${base}/api/ping`);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(await refused.json()).toMatchObject({
        status: 503,
        code: 'ENGINE_START_FAILED',
        lastFailure: expect.objectContaining({ code: row.lastFailure?.code }),
      });
    }
  });

  it('after a restartable failure, a restart opens the application routes again', async () => {
    let attempts = 0;
    const flaky: ModuleDefinition = {
      id: 'flaky',
      version: '1.0.0',
      start: () => {
        if (++attempts === 1) throw Object.assign(new Error('not yet'), { code: 'NOT_YET' });
      },
    };
    const outcome = await served(() =>
      createWebHost(builder({ Engine__FailurePolicy__ManualRestartBackoff: '0s' }, [flaky]), embedded),
    );
    if (outcome.kind !== 'served') throw new Error('the host was not created');
    expect(await statusOf(outcome.base, '/api/ping')).toBe(503);
    await outcome.host.engine.restart();
    expect(await statusOf(outcome.base, '/api/ping')).toBe(200);
    expect(await statusOf(outcome.base, '/health/ready')).toBe(200);
  });
});

describe('a web host that owns the process, after a failed start', () => {
  it.each([
    ['a module whose start throws', () => builder({}, [throwingModule]), 'ENGINE_START_FAILED'],
    [
      'the startup timeout',
      () => builder({ Engine__Startup__Timeout: '50ms' }, [hangingModule]),
      'ENGINE_START_TIMEOUT',
    ],
  ])('%s: frees its port, reports and exits 1', async (_case, create, code) => {
    const exits: number[] = [];
    const reports: string[] = [];
    const port = await freePort();
    const host = withAppRoute(
      createWebHost(create(), {
        port,
        bindAddress: '127.0.0.1',
        handleSignals: false,
        exitProcess: true,
        exit: (exitCode) => void exits.push(exitCode),
        reportStartupError: (text) => void reports.push(text),
      }),
    );
    await expect(host.listen()).rejects.toMatchObject({ code });
    expect(exits).toEqual([1]);
    expect(reports).toEqual([expect.stringContaining(`Startup failed: ${code}`)]);
    expect(host.engine.state).toBe('Failed');
    // It had listened (the health routes answer during a start), and closed the port before it exited.
    expect(host.server).toBeDefined();
    expect(host.server?.listening).toBe(false);
    expect(await portIsFree(port)).toBe(true);
  });

  it('the port in use: the failure is recorded, reported, and it exits 1', async () => {
    const blocker = createServer();
    const port = await listenOn(blocker);
    cleanups.push(() => closeServer(blocker));
    const exits: number[] = [];
    const reports: string[] = [];
    const host = createWebHost(builder(), {
      port,
      bindAddress: '127.0.0.1',
      handleSignals: false,
      exitProcess: true,
      exit: (exitCode) => void exits.push(exitCode),
      reportStartupError: (text) => void reports.push(text),
    });
    await expect(host.listen()).rejects.toMatchObject({ code: 'HOST_PORT_IN_USE' });
    expect(exits).toEqual([1]);
    expect(reports).toEqual([expect.stringContaining('Startup failed: HOST_PORT_IN_USE')]);
    expect(host.engine.status().lastFailure).toMatchObject({ phase: 'host-listen', restartable: false });
  });

  it('the Engine:Web section refused: the failure is recorded, reported, and it exits 1', async () => {
    const { engine, exits, reports } = refusedOwningHost({ Engine__Web__MaxRequestBodyBytes: '-1' });
    expect(engine.state).toBe('Failed');
    expect(engine.status().lastFailure).toMatchObject({ phase: 'host-configuration', restartable: false });
    // The release, the report and the exit follow the throw.
    await pollUntilExited(exits);
    expect(reports).toEqual([expect.stringContaining('Engine:Web:MaxRequestBodyBytes')]);
  });
});

describe('a worker host that does not own the process, whose web host refuses its configuration', () => {
  it('records the refusal as a runtime failure: Failed, lastFailure with the problems, and its stop says 1', async () => {
    const worker = createWorkerHost(
      builder({
        Engine__Web__EngineRoutes__Exposure: 'Open',
        Engine__Web__EngineRoutes__RequireAuthorization: 'true',
      }),
      { handleSignals: false },
    );
    expect(() => createWebHost(worker, { port: 0 })).toThrow(
      expect.objectContaining({ code: 'CONFIGURATION_INVALID' }),
    );
    expect(worker.engine.state).toBe('Failed');
    expect(worker.engine.status().lastFailure).toMatchObject({
      phase: 'host-configuration',
      code: 'CONFIGURATION_INVALID',
      restartable: false,
      message: expect.stringContaining('Engine:Web:EngineRoutes:RequireAuthorization'),
    });
    expect(worker.engine.status().liveness).toBe('Unhealthy');
    await expect(worker.start()).rejects.toMatchObject({ code: 'ENGINE_NOT_RESTARTABLE' });
    expect(await worker.stop()).toBe(1);
  });

  it('a host that owns the process records the same refusal, reports it and exits 1', async () => {
    const { engine, exits, reports } = refusedOwningHost({
      Engine__Web__EngineRoutes__Exposure: 'RequireAuthorization',
    });
    expect(engine.status().lastFailure).toMatchObject({ phase: 'host-configuration', restartable: false });
    await pollUntilExited(exits);
    expect(reports).toEqual([expect.stringContaining('no authorize hook')]);
  });
});

/** createWebHost for a host that owns the process, on an engine built from `environment`: it must throw. */
function refusedOwningHost(environment: Record<string, string>) {
  const exits: number[] = [];
  const reports: string[] = [];
  const engine = builder(environment).build();
  expect(() =>
    createWebHost(engine, {
      handleSignals: false,
      exitProcess: true,
      exit: (exitCode) => void exits.push(exitCode),
      reportStartupError: (text) => void reports.push(text),
    }),
  ).toThrow(expect.objectContaining({ code: 'CONFIGURATION_INVALID' }));
  return { engine, exits, reports };
}

async function pollUntilExited(exits: number[]): Promise<void> {
  await pollUntil(
    async () => exits.length,
    (count) => count > 0,
  );
  expect(exits).toEqual([1]);
}
