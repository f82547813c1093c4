import { defineOperation, identifierSchema, OperationError } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { z } from 'zod';
import { createWorkerHost } from './index';

/** A pack-style operation over a store: the worker host serves no HTTP, callers invoke it in process. */
function builderWithCounterOperation() {
  const builder = createEngineBuilder({
    environment: {},
    logger: createMemoryLogger(),
    contentRoot: __dirname,
  });
  const store = builder.openStore<number>('counters');
  builder.addOperation(
    defineOperation({
      id: 'counters.increment',
      method: 'POST',
      path: '/engine/counters/:name',
      summary: 'Increment a named counter',
      params: z.object({ name: identifierSchema }),
      body: z.object({ by: z.number().int().min(1).max(10) }),
      result: z.object({ name: z.string(), value: z.number().int(), transport: z.string() }),
      errors: { conflict: 'the counter changed meanwhile' },
      handler: async ({ params, body }, context) => {
        const current = await store.get(params.name);
        const value = (current?.value ?? 0) + body.by;
        const written = await store.put(params.name, value, { expectedVersion: current?.version ?? 0 });
        if (!written.written)
          throw new OperationError('conflict', 'COUNTER_CHANGED', 'The counter changed meanwhile');
        return { name: params.name, value, transport: context.transport };
      },
    }),
  );
  return builder;
}

describe('operations on a worker host', () => {
  it('answers unavailable before start, then runs the operation in process with validated input', async () => {
    const host = createWorkerHost(builderWithCounterOperation(), { handleSignals: false });
    const invocation = { params: { name: 'jobs' }, body: { by: 2 } };
    await expect(host.engine.operations.invoke('counters.increment', invocation)).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'OPERATION_UNAVAILABLE',
    });

    await host.start();
    try {
      expect(host.engine.operations.list().map((operation) => operation.id)).toContain('counters.increment');
      const first = await host.engine.operations.invoke('counters.increment', invocation);
      expect(first).toMatchObject({
        status: 200,
        body: { name: 'jobs', value: 2, transport: 'in-process' },
        contentType: 'application/json',
      });
      const second = await host.engine.operations.invoke('counters.increment', invocation);
      expect(second.body).toEqual({ name: 'jobs', value: 4, transport: 'in-process' });
      await expect(
        host.engine.operations.invoke('counters.increment', { params: { name: 'jobs' }, body: { by: 0 } }),
      ).rejects.toMatchObject({ kind: 'invalid-input', code: 'OPERATION_INPUT_INVALID' });
      await expect(host.engine.operations.invoke('counters.reset', {})).rejects.toMatchObject({
        kind: 'not-found',
        code: 'OPERATION_NOT_FOUND',
      });
    } finally {
      expect(await host.stop()).toBe(0);
    }
    await expect(host.engine.operations.invoke('counters.increment', invocation)).rejects.toMatchObject({
      kind: 'unavailable',
    });
  });
});
