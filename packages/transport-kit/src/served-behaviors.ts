import { streamItemSchema, type BehaviorRuntime, type RegisteredBehavior } from '@corekit/abstractions';

/**
 * True for a behavior whose handler answers an async iterable (`streamingOutput`): those are served on the
 * ServerSentEvents and WebSocket transports, never by a request/response adapter.
 */
export function isStreamingBehavior(entry: RegisteredBehavior): boolean {
  return streamItemSchema(entry.behavior) !== undefined;
}

/**
 * The behaviors a request/response transport serves (every non-streaming one), recomputed only when the
 * registry's size changed: the same array comes back until then, so callers may cache what they derive
 * from it by identity. It cannot see a behavior replaced in place (the registry never does that).
 */
export function servedBehaviors(runtime: BehaviorRuntime | undefined): () => readonly RegisteredBehavior[] {
  let seen = -1;
  let served: readonly RegisteredBehavior[] = [];
  return () => {
    const behaviors = runtime?.behaviors() ?? [];
    if (behaviors.length !== seen) {
      seen = behaviors.length;
      served = behaviors.filter((entry) => !isStreamingBehavior(entry));
    }
    return served;
  };
}

/** The ids of `servedBehaviors(runtime)`, as a set that stays the same object until the registry grew. */
export function servedMethods(runtime: BehaviorRuntime | undefined): () => ReadonlySet<string> {
  const behaviors = servedBehaviors(runtime);
  let from: readonly RegisteredBehavior[] | undefined;
  let methods: ReadonlySet<string> = new Set();
  return () => {
    const current = behaviors();
    if (current !== from) {
      from = current;
      methods = new Set(current.map((entry) => entry.behavior.id));
    }
    return methods;
  };
}
