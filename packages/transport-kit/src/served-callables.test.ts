import {
  defineBehavior,
  streamingOutput,
  type CallableRuntime,
  type RegisteredCallable,
} from '@corekit/abstractions';
import { z } from 'zod';
import {
  asRegisteredCallable,
  operationSelected,
  servedCallableIds,
  servedCallables,
  servedOperationsSchema,
} from './served-callables';

const callable = (kind: 'behavior' | 'operation', id: string, streaming = false): RegisteredCallable => ({
  kind,
  owner: 'm',
  callable: defineBehavior({
    id,
    input: z.object({}),
    output: streaming ? streamingOutput(z.object({ n: z.number() })) : z.object({}),
    handler: () => ({}) as never,
  }),
});

function runtimeOf(entries: RegisteredCallable[]): CallableRuntime {
  return { callables: () => entries, invoke: async () => undefined };
}

describe('served callables', () => {
  it('serves every non-streaming behavior and only the operations the Operations option selects', () => {
    const entries = [
      callable('behavior', 'orders.get'),
      callable('behavior', 'orders.feed', true),
      callable('operation', 'agents.run-tool'),
      callable('operation', 'tenant-governance-web.administration-command'),
      callable('operation', 'tenant-governance-web.delivery-dispatch'),
      callable('operation', 'eventing.publish'),
    ];
    const ids = (operations: string[]) =>
      servedCallables(runtimeOf(entries), operations)().map((entry) => entry.callable.id);
    expect(ids([])).toEqual(['orders.get']);
    expect(ids(['agents.run-tool', 'tenant-governance-web.*'])).toEqual([
      'orders.get',
      'agents.run-tool',
      'tenant-governance-web.administration-command',
      'tenant-governance-web.delivery-dispatch',
    ]);
    expect(ids(['*'])).toHaveLength(5);
  });

  it('gives the same array and id set until the runtime’s list changed size', () => {
    const entries = [callable('behavior', 'a.get')];
    const served = servedCallables(runtimeOf(entries), []);
    const ids = servedCallableIds(served);
    const [first, firstIds] = [served(), ids()];
    expect([served(), ids()]).toEqual([first, firstIds]);
    expect(served()).toBe(first);
    entries.push(callable('behavior', 'a.list'));
    expect(served()).not.toBe(first);
    expect([...ids()]).toEqual(['a.get', 'a.list']);
  });

  it('matches ids, prefixes and the wildcard; the option refuses anything else', () => {
    expect(operationSelected('agents.run-tool', ['agents.*'])).toBe(true);
    expect(operationSelected('agentsx.run', ['agents.*'])).toBe(false);
    expect(operationSelected('eventing.publish', ['eventing.publish'])).toBe(true);
    expect(servedOperationsSchema.safeParse(['agents.*', '*', 'eventing.publish']).success).toBe(true);
    expect(servedOperationsSchema.safeParse(['agents*']).success).toBe(false);
    expect(servedOperationsSchema.parse(undefined)).toEqual([]);
  });

  it('reads a behavior entry as a behavior callable', () => {
    const behavior = defineBehavior({
      id: 'a.get',
      input: z.object({}),
      output: z.object({}),
      handler: () => ({}),
    });
    expect(asRegisteredCallable({ moduleId: 'm', behavior })).toEqual({
      kind: 'behavior',
      owner: 'm',
      callable: behavior,
    });
  });
});
