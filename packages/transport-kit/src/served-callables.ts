import {
  behaviorStreamMarker,
  type CallableRuntime,
  type RegisteredBehavior,
  type RegisteredCallable,
} from '@corekit/abstractions';
import { z } from 'zod';

/**
 * The `Operations` option of every transport adapter (`Engine:GraphQL:Operations`, `Engine:JsonRpc:Operations`,
 * `Engine:Grpc:Operations`): the operations it serves besides every behavior, by id (`agents.run-tool`) or by
 * prefix (`tenant-governance.*`; `*` alone serves every operation). Default none: an operation exists first for
 * HTTP, and a host chooses which ones another protocol exposes (docs/adr/0001-one-callable.md).
 */
export const servedOperationsSchema = z
  .array(
    z.string().regex(/^(\*|[A-Za-z0-9][A-Za-z0-9._-]*(\.\*)?)$/, 'an operation id or a prefix ending in .*'),
  )
  .default([]);

/** Whether `operationId` is listed by `patterns` (an id, `prefix.*`, or `*`). */
export function operationSelected(operationId: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern === '*'
      ? true
      : pattern.endsWith('.*')
        ? operationId.startsWith(pattern.slice(0, -1))
        : operationId === pattern,
  );
}

/**
 * True for a callable whose handler answers an async iterable (a behavior declared with `streamingOutput`):
 * served on server-sent events and WebSocket only.
 */
export function isStreamingCallable(entry: RegisteredCallable): boolean {
  return behaviorStreamMarker in entry.callable.output;
}

/**
 * The callables a request/response transport serves: every non-streaming behavior and the operations
 * `operations` selects. Recomputed only when the runtime's list changed size, so the same array comes back
 * until then and callers may cache what they derive from it by identity.
 */
export function servedCallables(
  runtime: CallableRuntime | undefined,
  operations: readonly string[],
): () => readonly RegisteredCallable[] {
  let seen = -1;
  let served: readonly RegisteredCallable[] = [];
  return () => {
    const callables = runtime?.callables() ?? [];
    if (callables.length !== seen) {
      seen = callables.length;
      served = callables.filter((entry) =>
        entry.kind === 'operation'
          ? operationSelected(entry.callable.id, operations)
          : !isStreamingCallable(entry),
      );
    }
    return served;
  };
}

/** The ids of `servedCallables(...)`, as a set that stays the same object until the list changed. */
export function servedCallableIds(served: () => readonly RegisteredCallable[]): () => ReadonlySet<string> {
  let from: readonly RegisteredCallable[] | undefined;
  let ids: ReadonlySet<string> = new Set();
  return () => {
    const current = served();
    if (current !== from) {
      from = current;
      ids = new Set(current.map((entry) => entry.callable.id));
    }
    return ids;
  };
}

/**
 * A behavior entry (`{ moduleId, behavior }`, what schema generators took before callables) as a callable
 * entry; a callable entry is answered as is. Lets public generators keep accepting both.
 */
export function asRegisteredCallable(entry: RegisteredCallable | RegisteredBehavior): RegisteredCallable {
  return 'callable' in entry ? entry : { kind: 'behavior', owner: entry.moduleId, callable: entry.behavior };
}
