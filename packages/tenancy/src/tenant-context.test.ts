import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { defineOperation } from '@corekit/abstractions';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import {
  addMultiTenancy,
  currentTenant,
  currentTenantId,
  requireCurrentTenant,
  runWithoutTenant,
  runWithTenant,
  tenantResolutionMiddleware,
} from './index';

describe('ambient tenant context', () => {
  it('follows await, timers, setImmediate and promise callbacks, and is restored afterwards', async () => {
    const seen: Array<string | undefined> = [];
    await runWithTenant('acme', async () => {
      seen.push(currentTenantId());
      await delay(5);
      seen.push(currentTenantId());
      await new Promise<void>((resolve) =>
        setTimeout(() => {
          seen.push(currentTenantId());
          resolve();
        }, 1),
      );
      await new Promise<void>((resolve) => setImmediate(() => (seen.push(currentTenantId()), resolve())));
      await Promise.resolve().then(() => seen.push(currentTenantId()));
    });
    expect(seen).toEqual(['acme', 'acme', 'acme', 'acme', 'acme']);
    expect(currentTenant()).toBeUndefined();
  });

  it('keeps concurrent contexts apart and lets a nested run override only its callback', async () => {
    const run = (tenantId: string, wait: number) =>
      runWithTenant(tenantId, async () => {
        await delay(wait);
        const inner = await runWithTenant('nested', async () => (await delay(1), currentTenantId()));
        return [currentTenantId(), inner];
      });
    const results = await Promise.all([run('a', 15), run('b', 1), run('c', 8)]);
    expect(results).toEqual([
      ['a', 'nested'],
      ['b', 'nested'],
      ['c', 'nested'],
    ]);
  });

  it('a timer registered inside a context fires in that context even after the context ended', async () => {
    const fired = new Promise<string | undefined>((resolve) => {
      runWithTenant('later', () => {
        setTimeout(() => resolve(currentTenantId()), 10);
      });
    });
    expect(currentTenantId()).toBeUndefined();
    expect(await fired).toBe('later');
  });

  it('runWithoutTenant clears the context and requireCurrentTenant refuses with 400', () => {
    runWithTenant('acme', () => {
      expect(runWithoutTenant(() => currentTenant())).toBeUndefined();
      expect(requireCurrentTenant().tenantId).toBe('acme');
    });
    expect(() => requireCurrentTenant()).toThrow(expect.objectContaining({ code: 'TENANT_CONTEXT_MISSING' }));
  });
});

describe('resolution seams', () => {
  function registered(options: Record<string, unknown> = {}) {
    const { builder, logger } = createTestEngineBuilder();
    const tenancy = addMultiTenancy(builder, {
      Tenants: [{ Id: 'acme' }, { Id: 'globex' }],
      Strategies: ['Header', 'Host'],
      DomainMap: { 'globex.localhost': 'globex' },
      ...options,
    });
    return { builder, logger, tenancy };
  }

  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  function get(port: number, headers: Record<string, string>) {
    return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/orders', headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('the node middleware runs the next handler inside the tenant, across await and a timer', async () => {
    const { tenancy } = registered();
    const middleware = tenantResolutionMiddleware(tenancy, { required: true });
    const port = await listen((request, response) =>
      middleware(request, response, async () => {
        await delay(2);
        setTimeout(() => response.end(`tenant=${currentTenantId()}`), 1);
      }),
    );
    expect((await get(port, { 'x-core-tenant-id': 'acme' })).body).toBe('tenant=acme');
    expect((await get(port, { host: 'globex.localhost' })).body).toBe('tenant=globex');
    const unknown = await get(port, { 'x-core-tenant-id': 'nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.type).toBe('application/problem+json');
    expect(JSON.parse(unknown.body)).toMatchObject({ status: 404, code: 'TENANT_NOT_FOUND' });
    const missing = await get(port, {});
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toMatchObject({ code: 'TENANT_REQUIRED' });
  });

  it('scopeOperation runs an engine operation under the resolved tenant and refuses an unknown one', async () => {
    const { builder, tenancy } = registered();
    builder.addOperation(
      defineOperation({
        id: 'tenancy-test.whoami',
        method: 'GET',
        path: '/engine/tenancy-test/whoami',
        summary: 'answers the ambient tenant',
        result: z.object({ tenantId: z.string().nullable() }),
        handler: tenancy.scopeOperation(async () => {
          await delay(1);
          return { tenantId: currentTenantId() ?? null };
        }),
      }),
    );
    const engine = builder.build();
    await engine.start();
    try {
      const ok = await engine.operations.invoke('tenancy-test.whoami', {
        headers: { 'x-core-tenant-id': 'globex' },
      });
      expect(ok.body).toEqual({ tenantId: 'globex' });
      const none = await engine.operations.invoke('tenancy-test.whoami', { headers: {} });
      expect(none.body).toEqual({ tenantId: null });
      await expect(
        engine.operations.invoke('tenancy-test.whoami', { headers: { 'x-core-tenant-id': 'nobody' } }),
      ).rejects.toMatchObject({ kind: 'not-found', code: 'TENANT_NOT_FOUND' });
    } finally {
      await engine.stop();
    }
  });

  it('publishes the tenant-resolution surface with every key and the event-id names', async () => {
    const { builder } = registered({ DefaultTenantId: 'acme' });
    const engine = builder.build();
    const surface = engine.technologySurfaces().find((entry) => entry.id === 'tenant-resolution');
    expect(surface).toMatchObject({ sourcePackage: '@corekit/tenancy' });
    expect(surface!.metadata).toMatchObject({
      configuredTenantCount: 2,
      configuredTenantIds: ['acme', 'globex'],
      defaultTenantId: 'acme',
      domainResolutionPosture: 'domain-map',
      domainMappingCount: 1,
      tenantKeyPosture: 'configured-only',
      resolverCount: 0,
      ambientContextAccessorCount: 3,
      enabledResolutionStrategies: ['header', 'host'],
    });
    expect(JSON.stringify(surface)).not.toContain('globex.localhost');
    const ids = engine.diagnostics().eventIds.find((range) => range.component === 'Multi-tenancy core');
    expect(ids?.names).toEqual({
      4500: 'tenant-resolved',
      4501: 'tenant-unresolved',
      4502: 'tenancy-configured',
    });
  });

  it('refuses bad configuration naming the key, and a second registration', async () => {
    const bad = createTestEngineBuilder({
      configuration: { Engine: { MultiTenancy: { Tenants: [{ Id: 'acme' }], DefaultTenantId: 'ghost' } } },
    });
    expect(() => addMultiTenancy(bad.builder)).toThrow(
      /Engine:MultiTenancy:DefaultTenantId must name a configured tenant/,
    );
    const custom = createTestEngineBuilder();
    expect(() => addMultiTenancy(custom.builder, { Strategies: ['Custom'] })).toThrow(
      /Custom but no custom resolver/,
    );
    const typo = createTestEngineBuilder({ configuration: { Engine: { MultiTenancy: { HeaderNme: 'x' } } } });
    addMultiTenancy(typo.builder);
    await expect(typo.builder.build().start()).rejects.toThrow(/HeaderNme.*HeaderName/s);
    const twice = createTestEngineBuilder();
    addMultiTenancy(twice.builder);
    expect(() => addMultiTenancy(twice.builder)).toThrow(
      expect.objectContaining({ code: 'ALREADY_REGISTERED' }),
    );
  });
});
