import { createServer, type Server } from 'node:net';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { closeTestHosts, controlledDependency, startTestHost } from './test-support/test-host';
import { createWebHost } from './index';
import { listenErrorCodes } from './listen-error';
import { restOrdersModule } from './test-support/rest-orders-module';

afterEach(closeTestHosts);

const production = { NODE_ENV: 'production' };
const operatorOnly = (request: { headers: Record<string, unknown> }) =>
  request.headers['x-operator'] === 'yes';
const failingDependency = () =>
  controlledDependency('orders-db', true, {
    status: 'Unhealthy',
    error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.7:5432' },
  });

describe('/engine exposure', () => {
  it('with NODE_ENV=production and no authorize hook, /engine/dependencies refuses an anonymous request and warns once', async () => {
    const test = await startTestHost({
      setup: (builder) => builder.addDependencyHealthContributor(failingDependency()),
      host: { environment: production },
    });
    for (const path of ['/engine', '/engine/dependencies', '/engine/diagnostics', '/engine/snapshot']) {
      const answer = await test.request(path);
      expect([path, answer.status, answer.body?.code]).toEqual([path, 403, 'FORBIDDEN']);
      expect(answer.text).not.toContain('ECONNREFUSED');
    }
    expect((await test.request('/health/ready')).body).not.toHaveProperty('dependencies');
    const warnings = test.logger.records.filter(
      (record) => record.level === 'warn' && String(record.message).includes('/engine'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toContain('Engine:Web:EngineRoutes:Exposure');
    expect(warnings[0].message).toContain('authorize');
  });

  it('with NODE_ENV=production and an authorize hook, only requests it allows see /engine', async () => {
    const test = await startTestHost({
      setup: (builder) => builder.addDependencyHealthContributor(failingDependency()),
      host: { environment: production, authorize: operatorOnly },
    });
    expect((await test.request('/engine/dependencies')).status).toBe(403);
    const allowed = await test.request('/engine/dependencies', { headers: { 'x-operator': 'yes' } });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('orders-db');
    expect(test.logger.records.some((record) => String(record.message).includes('/engine routes'))).toBe(
      false,
    );
  });

  it('Exposure: Open serves /engine to anyone in production', async () => {
    const test = await startTestHost({
      configuration: { Engine: { Web: { EngineRoutes: { Exposure: 'Open' } } } },
      host: { environment: production },
    });
    expect((await test.request('/engine/dependencies')).status).toBe(200);
  });

  it('outside production the default is open; Exposure: RequireAuthorization guards it there too', async () => {
    const open = await startTestHost({ host: { environment: { NODE_ENV: 'development' } } });
    expect((await open.request('/engine/dependencies')).status).toBe(200);
    const guarded = await startTestHost({
      configuration: { Engine: { Web: { EngineRoutes: { Exposure: 'RequireAuthorization' } } } },
      host: { environment: {}, authorize: operatorOnly },
    });
    expect((await guarded.request('/engine/dependencies')).status).toBe(403);
  });

  it('an explicit RequireAuthorization without a hook, or two keys that disagree, fail at startup naming the keys', async () => {
    await expect(
      startTestHost({
        configuration: { Engine: { Web: { EngineRoutes: { Exposure: 'RequireAuthorization' } } } },
      }),
    ).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      details: { problems: [expect.stringContaining('Engine:Web:EngineRoutes:Exposure')] },
    });
    await expect(
      startTestHost({
        configuration: {
          Engine: { Web: { EngineRoutes: { Exposure: 'Open', RequireAuthorization: true } } },
        },
        host: { authorize: operatorOnly },
      }),
    ).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      details: { problems: [expect.stringContaining('Engine:Web:EngineRoutes:RequireAuthorization')] },
    });
  });
});

describe('listen errors', () => {
  let blocker: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())));

  it('a port in use rejects with HOST_PORT_IN_USE naming the port and the keys that choose it', async () => {
    blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker!.listen(0, '127.0.0.1', () => resolve((blocker!.address() as { port: number }).port)),
    );
    const builder = createEngineBuilder({
      environment: {},
      logger: createMemoryLogger(),
      contentRoot: __dirname,
    });
    const host = createWebHost(builder, { port, bindAddress: '127.0.0.1', handleSignals: false });
    const failure = await host.listen().then(
      () => undefined,
      (error: unknown) => error as { code: string; message: string; details: Record<string, unknown> },
    );
    expect(failure?.code).toBe(listenErrorCodes.portInUse);
    expect(failure?.message).toContain(`127.0.0.1:${port}`);
    expect(failure?.details).toMatchObject({
      port,
      whatToDo: expect.stringContaining('PORT or Engine:Web:Port'),
    });
    // The failed listen is a start failure the engine records (Failed, not restartable), not a never-started engine.
    expect(host.engine.state).toBe('Failed');
    expect(host.engine.status().lastFailure).toMatchObject({
      phase: 'host-listen',
      code: listenErrorCodes.portInUse,
      restartable: false,
    });
  });

  it('under guarded exposure the OpenAPI documents and /scalar describe /engine only to callers the hook admits', async () => {
    const test = await startTestHost({
      setup: (builder) => builder.addModule(restOrdersModule()),
      host: { environment: production, authorize: operatorOnly },
    });
    const enginePaths = (document: { paths: Record<string, unknown> }) =>
      Object.keys(document.paths).filter((path) => path === '/engine' || path.startsWith('/engine/'));
    for (const path of ['/openapi/v1.json', '/openapi/v2.json']) {
      const anonymous = await test.request(path);
      expect(anonymous.status).toBe(200);
      expect([path, enginePaths(anonymous.body)]).toEqual([path, []]);
      expect(anonymous.text).not.toContain('/engine');
    }
    const anonymous = (await test.request('/openapi/v1.json')).body;
    expect(Object.keys(anonymous.paths)).toEqual(expect.arrayContaining(['/api/orders', '/health/ready']));
    const operator = (await test.request('/openapi/v1.json', { headers: { 'x-operator': 'yes' } })).body;
    expect(enginePaths(operator).length).toBeGreaterThan(10);
    const page = await test.request('/scalar');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/engine/');
    const open = await startTestHost({
      setup: (builder) => builder.addModule(restOrdersModule()),
      host: { environment: {} },
    });
    expect(enginePaths((await open.request('/openapi/v1.json')).body).length).toBeGreaterThan(10);
  });
});
