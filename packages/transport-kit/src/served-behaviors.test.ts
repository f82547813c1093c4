import {
  defineBehavior,
  streamingOutput,
  type BehaviorRuntime,
  type RegisteredBehavior,
} from '@corekit/abstractions';
import { z } from 'zod';
import { isStreamingBehavior, servedBehaviors, servedMethods } from './served-behaviors';

const entry = (id: string, streaming = false) =>
  ({
    moduleId: 'm',
    behavior: defineBehavior({
      id,
      input: z.object({}),
      output: streaming ? streamingOutput(z.object({ n: z.number() })) : z.object({}),
      handler: () => ({}) as never,
    }),
  }) as unknown as RegisteredBehavior;

function runtimeOf(entries: RegisteredBehavior[]): BehaviorRuntime {
  return { behaviors: () => entries } as unknown as BehaviorRuntime;
}

describe('served behaviors', () => {
  it('tells streaming behaviors apart', () => {
    expect(isStreamingBehavior(entry('a.feed', true))).toBe(true);
    expect(isStreamingBehavior(entry('a.get'))).toBe(false);
  });

  it('leaves streaming behaviors out and recomputes only when the registry grew', () => {
    const entries = [entry('a.get'), entry('a.feed', true)];
    const behaviors = servedBehaviors(runtimeOf(entries));
    const methods = servedMethods(runtimeOf(entries));
    const first = behaviors();
    const firstMethods = methods();
    expect(first.map((served) => served.behavior.id)).toEqual(['a.get']);
    expect([...firstMethods]).toEqual(['a.get']);
    expect(behaviors()).toBe(first);
    expect(methods()).toBe(firstMethods);
    entries.push(entry('b.create'));
    expect(behaviors().map((served) => served.behavior.id)).toEqual(['a.get', 'b.create']);
    expect([...methods()]).toEqual(['a.get', 'b.create']);
  });

  it('serves nothing without a behavior runtime', () => {
    expect(servedBehaviors(undefined)()).toEqual([]);
    expect(servedMethods(undefined)().size).toBe(0);
  });
});
