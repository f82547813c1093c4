import { z, type ZodType } from 'zod';
import type { BehaviorDefinition } from './behaviors';

/** Where a streaming behavior's output schema keeps its item schema (a global symbol: package copies agree). */
export const behaviorStreamMarker = Symbol.for('@corekit/behavior-stream');

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] === 'function';
}

/**
 * The output schema of a streaming behavior: the handler answers an async iterable (an async generator) whose
 * items `item` validates one by one while they are sent. Such behaviors are served on the ServerSentEvents and
 * WebSocket transports only; the request/response adapters (REST, GraphQL, gRPC, JSON-RPC) leave them out.
 */
export function streamingOutput<T extends ZodType>(item: T): ZodType<AsyncIterable<z.output<T>>> {
  const schema = z.custom<AsyncIterable<z.output<T>>>(
    isAsyncIterable,
    'a streaming behavior answers an async iterable',
  );
  Object.defineProperty(schema, behaviorStreamMarker, { value: item });
  return schema;
}

/** The item schema of a streaming behavior, or undefined for any other behavior. */
export function streamItemSchema(behavior: BehaviorDefinition): ZodType | undefined {
  return (behavior.output as unknown as Record<symbol, ZodType | undefined>)[behaviorStreamMarker];
}
