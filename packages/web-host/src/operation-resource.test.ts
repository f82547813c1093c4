import {
  defineOperation,
  OperationError,
  type AuthorizationResource,
  type EngineBuilder,
} from '@corekit/abstractions';
import { z } from 'zod';
import type { AuthorizationRequirement } from './web-host-options';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

/** Tenants each test token may act in. */
const tokenTenants: Record<string, readonly string[]> = { 'token-a': ['tenant-a'], 'token-b': ['tenant-b'] };

/**
 * A guarded operation whose resource is the body's tenant (refusing a query naming another one), and an
 * operation declaring no resource; the handler answers the resource it was handed.
 */
function operations(builder: EngineBuilder, handled: (AuthorizationResource | null)[]) {
  builder.addOperation(
    defineOperation({
      id: 'tenant-things.create',
      method: 'POST',
      path: '/engine/tenant-things',
      summary: 'Creates a thing in a tenant',
      authorization: { mode: 'required', policy: 'things.write' },
      body: z.strictObject({ tenantId: z.string() }),
      result: z.object({ tenantId: z.string().nullable() }),
      authorizationResource: ({ query, body }) => {
        const fromBody = (body as { tenantId?: unknown } | undefined)?.tenantId;
        const fromQuery = (query as { tenantId?: unknown }).tenantId;
        if (fromQuery !== undefined && fromQuery !== fromBody) {
          throw new OperationError('invalid-input', 'TENANT_SCOPE_CONFLICT', 'two tenants named');
        }
        return { tenantId: typeof fromBody === 'string' ? fromBody : undefined, kind: 'tenant-thing' };
      },
      handler: async (_input, context) => {
        handled.push(context.resource);
        return { tenantId: context.resource?.tenantId ?? null };
      },
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'tenant-things.plain',
      method: 'GET',
      path: '/engine/tenant-things/plain',
      summary: 'Declares no resource',
      authorization: { mode: 'required', policy: 'things.read' },
      result: z.object({ resource: z.null() }),
      handler: async (_input, context) => ({ resource: context.resource as null }),
    }),
  );
}

async function host() {
  const asked: AuthorizationRequirement[] = [];
  const handled: (AuthorizationResource | null)[] = [];
  const test = await startTestHost({
    setup: (builder) => operations(builder, handled),
    host: {
      authorize: (request, requirement) => {
        asked.push(requirement!);
        const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
        const tenants = tokenTenants[token];
        if (!tenants) return { outcome: 'unauthenticated' };
        const tenantId = requirement?.resource?.tenantId;
        return tenantId === undefined || tenants.includes(tenantId);
      },
    },
  });
  const post = (path: string, body: unknown, token: string) =>
    test.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  return { ...test, asked, handled, post };
}

describe('operation authorization with the resource an operation acts on', () => {
  it('asks the authorize hook with the resource and hands the handler the same one', async () => {
    const test = await host();
    const own = await test.post('/engine/tenant-things', { tenantId: 'tenant-a' }, 'token-a');
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ tenantId: 'tenant-a' });
    expect(test.asked).toEqual([
      {
        policy: 'things.write',
        operationId: 'tenant-things.create',
        resource: { tenantId: 'tenant-a', kind: 'tenant-thing' },
      },
    ]);
    expect(test.handled).toEqual([{ tenantId: 'tenant-a', kind: 'tenant-thing' }]);
  });

  it("refuses another tenant's resource with 403 before the handler runs", async () => {
    const test = await host();
    const other = await test.post('/engine/tenant-things', { tenantId: 'tenant-b' }, 'token-a');
    expect(other.status).toBe(403);
    expect(test.handled).toEqual([]);
  });

  it('answers the resolver refusal (400) before the hook is asked or the handler runs', async () => {
    const test = await host();
    const moved = await test.post(
      '/engine/tenant-things?tenantId=tenant-a',
      { tenantId: 'tenant-b' },
      'token-a',
    );
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('TENANT_SCOPE_CONFLICT');
    expect(test.asked).toEqual([]);
    expect(test.handled).toEqual([]);
  });

  it('leaves the resource out for an operation that declares none (null in the handler)', async () => {
    const test = await host();
    const plain = await test.request('/engine/tenant-things/plain', {
      headers: { authorization: 'Bearer token-b' },
    });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ resource: null });
    expect(test.asked).toEqual([{ policy: 'things.read', operationId: 'tenant-things.plain' }]);
  });

  it('resolves the resource in process too (engine.operations.invoke, no host)', async () => {
    const test = await host();
    const outcome = await test.host.engine.operations.invoke('tenant-things.create', {
      body: { tenantId: 'tenant-b' },
    });
    expect(outcome.body).toEqual({ tenantId: 'tenant-b' });
    expect(test.handled).toEqual([{ tenantId: 'tenant-b', kind: 'tenant-thing' }]);
  });
});
