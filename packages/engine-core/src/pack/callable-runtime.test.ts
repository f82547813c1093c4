import {
  callableRuntimeKey,
  defineOperation,
  type AuthorizationRequest,
  type AuthorizationDecision,
  type OperationContext,
} from '@corekit/abstractions';
import { z } from 'zod';
import { createEngineBuilder } from '../engine-builder';
import { createMemoryLogger } from '../logger';

/** An engine with `notes.add` (policy notes.write, tenant from the route), a raw-body and an unguarded one. */
async function startEngine() {
  const seen: OperationContext[] = [];
  const builder = createEngineBuilder({
    contentRoot: '/nonexistent',
    environment: {},
    logger: createMemoryLogger(),
  });
  builder.addOperation(
    defineOperation({
      id: 'notes.add',
      method: 'POST',
      path: '/tenants/:tenantId/notes',
      summary: 'Add a note',
      params: z.object({ tenantId: z.string() }),
      body: z.object({ text: z.string().min(1) }),
      result: z.object({ tenantId: z.string(), text: z.string() }),
      authorization: { mode: 'required', policy: 'notes.write' },
      authorizationResource: ({ params }) => ({
        tenantId: String((params as { tenantId?: unknown }).tenantId),
      }),
      handler: ({ params, body }, context) => {
        seen.push(context);
        return { tenantId: params.tenantId, text: body.text };
      },
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'notes.callback',
      method: 'POST',
      path: '/notes/callback',
      summary: 'A signed callback',
      rawBody: true,
      result: z.object({}),
      handler: () => ({}),
    }),
  );
  builder.addOperation(
    defineOperation({
      id: 'notes.count',
      method: 'GET',
      path: '/engine/notes/count',
      summary: 'Count notes',
      result: z.object({ count: z.number() }),
      handler: () => ({ count: seen.length }),
    }),
  );
  const engine = builder.build();
  await engine.start();
  return { engine, seen, callables: engine.resolve(callableRuntimeKey)! };
}

/** An authorizer allowing token `acme` in tenant acme only; every request it is asked is recorded. */
function tenantAuthorizer(asked: AuthorizationRequest[]) {
  return (request: AuthorizationRequest): AuthorizationDecision => {
    asked.push(request);
    if (request.headers.authorization !== 'Bearer acme') return { outcome: 'unauthenticated' };
    return request.resource?.tenantId === 'acme'
      ? { outcome: 'allowed', principal: { subject: 'acme-writer' } }
      : { outcome: 'forbidden' };
  };
}

const over = (authorizer: (request: AuthorizationRequest) => AuthorizationDecision) => ({
  transport: 'json-rpc',
  authorizer,
  request: { method: 'POST', path: '/rpc', headers: { authorization: 'Bearer acme' } },
});

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; code: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { kind: string; code: string };
  }
  throw new Error('expected a refusal');
}

describe('the callable runtime (one invoke path for every transport)', () => {
  it('lists every operation but the raw-body ones, its input being the request parts it declares', async () => {
    const { engine, callables } = await startEngine();
    const listed = callables.callables().filter((entry) => entry.callable.id.startsWith('notes.'));
    expect(listed.map((entry) => [entry.kind, entry.callable.id])).toEqual([
      ['operation', 'notes.add'],
      ['operation', 'notes.count'],
    ]);
    const input = listed[0]!.callable.input;
    expect(input.safeParse({ params: { tenantId: 'acme' }, body: { text: 'hi' } }).success).toBe(true);
    expect(input.safeParse({ body: { text: 'hi' } }).success).toBe(false);
    await engine.stop();
  });

  it('asks the authorizer once, with the policy and the tenant resource, and hands both to the handler', async () => {
    const { engine, callables, seen } = await startEngine();
    const asked: AuthorizationRequest[] = [];
    const answer = await callables.invoke(
      'notes.add',
      { params: { tenantId: 'acme' }, body: { text: 'hi' } },
      over(tenantAuthorizer(asked)),
    );
    expect(answer).toEqual({ tenantId: 'acme', text: 'hi' });
    expect(asked.map(({ policy, operationId, resource }) => ({ policy, operationId, resource }))).toEqual([
      { policy: 'notes.write', operationId: 'notes.add', resource: { tenantId: 'acme' } },
    ]);
    expect(
      seen.map(({ transport, resource, principal }) => [transport, resource, principal?.subject]),
    ).toEqual([['json-rpc', { tenantId: 'acme' }, 'acme-writer']]);
    await engine.stop();
  });

  it("refuses another tenant's resource with the REST route's error (forbidden, FORBIDDEN) before the handler runs", async () => {
    const { engine, callables, seen } = await startEngine();
    const refused = await refusal(
      callables.invoke(
        'notes.add',
        { params: { tenantId: 'globex' }, body: { text: 'hi' } },
        over(tenantAuthorizer([])),
      ),
    );
    expect([refused.kind, refused.code]).toEqual(['forbidden', 'FORBIDDEN']);
    expect(seen).toEqual([]);
    await engine.stop();
  });

  it('validates the input once, after authorization, with the operation registry (OPERATION_INPUT_INVALID)', async () => {
    const { engine, callables } = await startEngine();
    const invalid = await refusal(
      callables.invoke(
        'notes.add',
        { params: { tenantId: 'acme' }, body: { text: '' } },
        over(tenantAuthorizer([])),
      ),
    );
    expect([invalid.kind, invalid.code]).toEqual(['invalid-input', 'OPERATION_INPUT_INVALID']);
    await engine.stop();
  });

  it('guards an operation that declares no authorization on every transport: no authorizer, unauthenticated', async () => {
    const { engine, callables } = await startEngine();
    const refused = await refusal(callables.invoke('notes.count', {}, { transport: 'graphql' }));
    expect([refused.kind, refused.code]).toEqual(['unauthenticated', 'UNAUTHENTICATED']);
    expect(await callables.invoke('notes.count', {}, { transport: 'in-process' })).toEqual({ count: 0 });
    await engine.stop();
  });

  it('answers CALLABLE_NOT_FOUND for an unknown id and for a raw-body operation', async () => {
    const { engine, callables } = await startEngine();
    for (const id of ['notes.nope', 'notes.callback']) {
      const missing = await refusal(callables.invoke(id, {}, { transport: 'in-process' }));
      expect([id, missing.kind, missing.code]).toEqual([id, 'not-found', 'CALLABLE_NOT_FOUND']);
    }
    await engine.stop();
  });
});
