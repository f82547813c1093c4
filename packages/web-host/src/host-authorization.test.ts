import { createEngineBuilder } from '@corekit/engine-core';
import { defineOperation, type Logger, type OperationDefinition } from '@corekit/abstractions';
import type { Request } from 'express';
import { z } from 'zod';
import { HostAuthorization, isEnginePath } from './host-authorization';
import type { HostRoute } from './host-route';
import type { AuthorizeRequest } from './web-host-options';

const silent: Logger = { log: () => undefined };
const engine = () => createEngineBuilder({ environment: {} }).build();

const route = (method: HostRoute['method'], path: string, extra: Partial<HostRoute> = {}): HostRoute => ({
  method,
  path,
  summary: path,
  responses: {},
  handler: () => undefined,
  ...extra,
});

const operation = (path: string, authorization?: OperationDefinition['authorization']) =>
  defineOperation({
    id: `op${path.replace(/\//g, '.')}`,
    method: 'POST',
    path,
    summary: 'an operation',
    result: z.object({}),
    ...(authorization ? { authorization } : {}),
    handler: async () => ({}),
  }) as OperationDefinition;

const request = { headers: {}, method: 'POST', path: '/x', url: '/x' } as unknown as Request;

describe('HostAuthorization', () => {
  it('decides the /engine exposure once, with the hook it will ask', async () => {
    const hook: AuthorizeRequest = () => true;
    let asked: AuthorizeRequest | undefined;
    const authorization = new HostAuthorization(await engine(), hook, silent, (authorize) => {
      asked = authorize;
      return true;
    });
    expect(asked).toBe(hook);
    expect(authorization.guardsEngineRoutes).toBe(true);
    expect(authorization.gate.guarded).toBe(true);
  });

  it('guards a route by its own flag, else by the /engine exposure rule', async () => {
    const guarded = new HostAuthorization(
      await engine(),
      () => true,
      silent,
      () => true,
    );
    const open = new HostAuthorization(
      await engine(),
      () => true,
      silent,
      () => false,
    );
    expect(guarded.isGuarded(route('get', '/engine/status'))).toBe(true);
    expect(guarded.isGuarded(route('get', '/engine/status', { requireAuthorization: false }))).toBe(false);
    expect(guarded.isGuarded(route('get', '/engineering'))).toBe(false);
    expect(open.isGuarded(route('get', '/engine/status'))).toBe(false);
    expect(open.isGuarded(route('get', '/api/x', { requireAuthorization: true }))).toBe(true);
    expect(isEnginePath('/engine')).toBe(true);
  });

  it('guards an operation by its declaration, else by the /engine exposure rule', async () => {
    const guarded = new HostAuthorization(
      await engine(),
      () => true,
      silent,
      () => true,
    );
    const open = new HostAuthorization(
      await engine(),
      () => true,
      silent,
      () => false,
    );
    expect(open.isOperationGuarded(operation('/api/a', { mode: 'required' }))).toBe(true);
    expect(guarded.isOperationGuarded(operation('/engine/a', { mode: 'anonymous' }))).toBe(false);
    expect(guarded.isOperationGuarded(operation('/metrics', { mode: 'operator' }))).toBe(true);
    expect(open.isOperationGuarded(operation('/metrics', { mode: 'operator' }))).toBe(false);
    expect(guarded.isOperationGuarded(operation('/engine/b'))).toBe(true);
    expect(guarded.isOperationGuarded(operation('/api/b'))).toBe(false);
  });

  it('adds the gate before a guarded route unless its handler guards, nothing before an open one', async () => {
    const authorization = new HostAuthorization(
      await engine(),
      () => true,
      silent,
      () => true,
    );
    expect(authorization.routeGuards(route('post', '/engine/x'))).toHaveLength(1);
    expect(authorization.routeGuards(route('post', '/engine/x', { guardedByHandler: true }))).toHaveLength(0);
    expect(authorization.routeGuards(route('post', '/api/x'))).toHaveLength(0);
  });

  it('refuses a route that requires authorization on a host without a hook', async () => {
    const authorization = new HostAuthorization(await engine(), undefined, silent, () => false);
    expect(() =>
      authorization.refuseUnservable(route('get', '/api/x', { requireAuthorization: true })),
    ).toThrow(
      expect.objectContaining({
        code: 'HOST_ROUTE_INVALID',
        message: 'GET /api/x requires authorization but createWebHost got no authorize hook',
      }),
    );
    expect(() => authorization.refuseUnservable(route('get', '/api/x'))).not.toThrow();
  });

  it('asks a required operation with its policy and the resource, and the hook refuses fail closed', async () => {
    const requirements: unknown[] = [];
    const hook: AuthorizeRequest = (_request, requirement) => (requirements.push(requirement), false);
    const authorization = new HostAuthorization(await engine(), hook, silent, () => false);
    const required = operation('/api/tenants/:id', { mode: 'required', policy: 'tenants.write' });
    const resource = { tenantId: 't-1', kind: 'tenant' };
    await expect(authorization.guardOperation(request, required, resource)).rejects.toMatchObject({
      status: 403,
    });
    expect(requirements).toEqual([{ policy: 'tenants.write', operationId: required.id, resource }]);
    await expect(authorization.refusal(request)).resolves.toBeNull();
    await expect(authorization.admitsEngineRoutes(request)).resolves.toBe(true);
  });
});
