import {
  behaviorRuntimeKey,
  defineBehavior,
  restPublicationKey,
  restGet,
  streamingOutput,
  type BehaviorContext,
} from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { z } from 'zod';
import { addRestPublication } from './add-rest-publication';
import { buildWithRest, ordersModule, thrown } from './test-support/rest-test-fixtures';

async function rejection(
  promise: Promise<unknown>,
): Promise<{ code: string; kind?: string; message: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; kind?: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}

describe('the behavior runtime (corekit.behaviors)', () => {
  it('answers only while the engine is Started', async () => {
    const engine = buildWithRest([ordersModule([])]);
    const runtime = engine.resolve(behaviorRuntimeKey)!;
    const before = await rejection(runtime.invoke('orders.get', { id: 'o-1' }, { transport: 'in-process' }));
    expect(before).toMatchObject({ code: 'BEHAVIOR_UNAVAILABLE', kind: 'unavailable' });
    await engine.start();
    await expect(runtime.invoke('orders.get', { id: 'o-1' }, { transport: 'in-process' })).resolves.toEqual({
      id: 'o-1',
      item: 'apple',
      quantity: 2,
    });
    await engine.stop();
    expect(
      await rejection(runtime.invoke('orders.get', { id: 'o-1' }, { transport: 'in-process' })),
    ).toMatchObject({ code: 'BEHAVIOR_UNAVAILABLE' });
  });

  it('refuses invalid input with the zod issues, before the handler runs', async () => {
    let calls = 0;
    const counting = defineBehavior({
      id: 'count',
      input: z.object({ amount: z.number().int() }),
      output: z.object({ total: z.number() }),
      handler: ({ amount }) => ({ total: (calls += amount) }),
    });
    const engine = buildWithRest([{ id: 'counter', version: '1.0.0', behaviors: [counting] }]);
    await engine.start();
    const runtime = engine.resolve(behaviorRuntimeKey)!;
    const error = await rejection(runtime.invoke('count', { amount: 'three' }, { transport: 'in-process' }));
    expect(error).toMatchObject({
      code: 'BEHAVIOR_INPUT_INVALID',
      kind: 'invalid-input',
      details: { behaviorId: 'count', errors: [{ path: 'amount' }] },
    });
    expect(calls).toBe(0);
    await engine.stop();
  });

  it('validates the answer against the output schema: unknown fields are stripped, a wrong answer is a server error', async () => {
    const leaky = defineBehavior({
      id: 'leaky',
      input: z.object({ broken: z.boolean().default(false) }),
      output: z.object({ name: z.string() }),
      handler: ({ broken }) =>
        broken ? ({ name: 42 } as never) : ({ name: 'ok', internalNote: 'secret' } as { name: string }),
    });
    const engine = buildWithRest([{ id: 'leaks', version: '1.0.0', behaviors: [leaky] }]);
    await engine.start();
    const runtime = engine.resolve(behaviorRuntimeKey)!;
    await expect(runtime.invoke('leaky', {}, { transport: 'in-process' })).resolves.toEqual({ name: 'ok' });
    const error = await rejection(runtime.invoke('leaky', { broken: true }, { transport: 'in-process' }));
    expect(error.code).toBe('BEHAVIOR_OUTPUT_INVALID');
    expect(error.message).toContain(
      'Behavior "leaky" of module "leaks" answered a value its output schema rejects (name:',
    );
    await engine.stop();
  });

  it('gives the handler its module, transport, endpoint id, configuration, logger and the caller signal', async () => {
    let seen: BehaviorContext | undefined;
    const probe = defineBehavior({
      id: 'probe',
      input: z.object({}),
      output: z.object({}),
      handler: (_input, context) => {
        seen = context;
        return {};
      },
    });
    const engine = buildWithRest([{ id: 'probes', version: '1.0.0', behaviors: [probe] }]);
    await engine.start();
    const controller = new AbortController();
    await engine
      .resolve(behaviorRuntimeKey)!
      .invoke('probe', {}, { transport: 'rest', endpointId: 'e-1', signal: controller.signal });
    expect(seen).toMatchObject({
      moduleId: 'probes',
      behaviorId: 'probe',
      transport: 'rest',
      endpointId: 'e-1',
      signal: controller.signal,
    });
    expect(typeof seen!.configuration.get).toBe('function');
    expect(typeof seen!.logger.log).toBe('function');
    await engine.stop();
  });

  it('rejects behaviors without schemas or handler at build', () => {
    const error = thrown(() =>
      buildWithRest([
        {
          id: 'broken',
          version: '1.0.0',
          behaviors: [
            { id: 'bad id', input: {}, output: z.object({}) } as never,
            { id: 'ok', input: {}, output: z.object({}) } as never,
          ],
        },
      ]),
    );
    expect(error.code).toBe('REST_PUBLICATION_INVALID');
    expect(error.message).toContain('module "broken" behaviors[0] id "bad id" is not a valid behavior id');
    expect(error.message).toContain('module "broken" behaviors[1] ("ok") input must be a zod schema');
    expect(error.message).toContain('module "broken" behaviors[1] ("ok") handler must be a function');
  });
});

describe('the published endpoints extension (corekit.rest-publication)', () => {
  it('hands hosts exactly the published endpoints with their behaviors', () => {
    const engine = buildWithRest([ordersModule([restGet('/api/ping', 'ping')])]);
    const endpoints = engine.resolve(restPublicationKey)!.endpoints();
    expect(
      endpoints.map(({ descriptor, behavior }) => [descriptor.id, descriptor.path, behavior.id]),
    ).toEqual([['orders:inline:ping', '/api/ping', 'ping']]);
  });
});

describe('streaming behaviors', () => {
  it('refuses to publish a streaming behavior over REST, naming the route and the transports that serve it', () => {
    const builder = createEngineBuilder({
      environment: {},
      contentRoot: '/nonexistent',
      logger: createMemoryLogger(),
    });
    addRestPublication(builder);
    builder.addModule({
      id: 'ticker',
      version: '1.0.0',
      behaviors: [
        defineBehavior({
          id: 'ticks.watch',
          input: z.object({}),
          output: streamingOutput(z.object({ n: z.number() })),
          async *handler() {
            yield { n: 1 };
          },
        }),
      ],
      rest: [restGet('/api/ticks', 'ticks.watch')],
    });
    expect(() => builder.build()).toThrow(
      'GET /api/ticks publishes the streaming behavior "ticks.watch" over REST; streaming behaviors are served on the ServerSentEvents and WebSocket transports only',
    );
  });
});
