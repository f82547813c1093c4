import { streamItemSchema, type BehaviorRuntime, type RegisteredBehavior } from '@corekit/abstractions';

/** True for a behavior whose handler answers an async iterable (served on SSE and WebSocket, not here). */
export function isStreamingBehavior(entry: RegisteredBehavior): boolean {
  return streamItemSchema(entry.behavior) !== undefined;
}

/** The behavior ids a request/response transport serves, recomputed when the registry grew. */
export function servedMethods(runtime: BehaviorRuntime | undefined): () => ReadonlySet<string> {
  let seen = -1;
  let methods = new Set<string>();
  return () => {
    const behaviors = runtime?.behaviors() ?? [];
    if (behaviors.length !== seen) {
      seen = behaviors.length;
      methods = new Set(
        behaviors.filter((entry) => !isStreamingBehavior(entry)).map((entry) => entry.behavior.id),
      );
    }
    return methods;
  };
}
