import type { BehaviorRuntime, RegisteredBehavior } from '@corekit/abstractions';

/** Where a streaming behavior's output schema keeps its item schema (see web-host `streamingOutput`). */
const streamMarker = Symbol.for('@corekit/behavior-stream');

/** True for a behavior whose handler answers an async iterable (served on SSE and WebSocket, not here). */
export function isStreamingBehavior(entry: RegisteredBehavior): boolean {
  return Boolean((entry.behavior.output as unknown as Record<symbol, unknown>)[streamMarker]);
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
