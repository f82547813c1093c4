import { endpointPathSchema, maxBodyBytesSchema, servedOperationsSchema } from '@corekit/transport-kit';
import { z } from 'zod';

export const graphQlSectionPath = 'Engine:GraphQL';

/** Last id segments that make a behavior a Query field (`orders.get`, `orders.list`, `orders.summary`). */
export const defaultReadVerbs = [
  'get',
  'list',
  'summary',
  'find',
  'search',
  'count',
  'status',
  'lookup',
] as const;

const behaviorIds = z.array(z.string().min(1)).default([]);

/** `Engine:GraphQL`. */
export const graphQlOptionsSchema = z.object({
  /** The exact path of the endpoint (GET for queries, POST for everything). Default `/graphql`. */
  Path: endpointPathSchema('/graphql'),
  /** Deepest selection nesting (a root field is 1). Default 8, 1..64. */
  MaxDepth: z.number().int().min(1).max(64).default(8),
  /**
   * Most lexical tokens in one document (names, punctuators, values; comments excluded). A larger document is
   * refused with TOKEN_LIMIT_EXCEEDED after reading one token more, before a syntax tree is built, so its cost
   * is that of `MaxTokens` tokens whatever its size. Default 5000, 100..1000000.
   */
  MaxTokens: z.number().int().min(100).max(1_000_000).default(5000),
  /** Highest operation cost: each behavior call costs `BehaviorCost`, each other field 1. Default 200. */
  MaxCost: z.number().int().min(1).max(100_000).default(200),
  /** Cost of one root field (one behavior call). Default 10. */
  BehaviorCost: z.number().int().min(1).max(10_000).default(10),
  /** Largest request body in bytes (HTTP 413 beyond). Default 1 MiB. */
  MaxBodyBytes: maxBodyBytesSchema,
  /** Last id segments that make a behavior a query; the rest are mutations. Default get, list, summary, find, search, count, status, lookup. */
  ReadVerbs: z.array(z.string().min(1)).default([...defaultReadVerbs]),
  /** Behavior ids served as queries whatever their last segment. */
  Queries: behaviorIds,
  /** Behavior ids served as mutations whatever their last segment (wins over Queries). */
  Mutations: behaviorIds,
  /**
   * Whether introspection (`__schema`, `__type`) is answered. Unset (the default): answered unless the host
   * guards its descriptions (the web host under `NODE_ENV=production`, or `Engine:Web:EngineRoutes:Exposure`
   * RequireAuthorization), where it is refused; true or false decide whatever the host does.
   */
  Introspection: z.boolean().optional(),
  /** Whether the host's authorize hook must accept each request. Default false. */
  RequireAuthorization: z.boolean().default(false),
  /**
   * The operations served as root fields besides every behavior: ids or `prefix.*` (`['agents.run-tool']`).
   * A field's `input` argument is `{ params, query, body }` with the parts the operation declares. Default none.
   */
  Operations: servedOperationsSchema,
});

export type GraphQlOptions = z.output<typeof graphQlOptionsSchema>;
export type GraphQlOptionsInput = z.input<typeof graphQlOptionsSchema>;

/** The query rule: Mutations list, then Queries list, then the last id segment among ReadVerbs. */
export function queryRule(options: GraphQlOptions): (behaviorId: string) => boolean {
  const verbs = new Set(options.ReadVerbs.map((verb) => verb.toLowerCase()));
  return (behaviorId) => {
    if (options.Mutations.includes(behaviorId)) return false;
    if (options.Queries.includes(behaviorId)) return true;
    const last = behaviorId.split('.').pop()!.toLowerCase();
    return verbs.has(last);
  };
}

export const graphQlEventIds = {
  mounted: 3286,
  /** A resolver failed with an unexpected error (the message is never sent). */
  resolverFailed: 3287,
  /** A request was refused before execution (body too large). */
  requestRefused: 3288,
} as const;

export const graphQlEventIdRange: readonly [number, number] = [3286, 3291];

export const graphQlEventIdNames: Readonly<Record<number, string>> = {
  [graphQlEventIds.mounted]: 'graphql-mounted',
  [graphQlEventIds.resolverFailed]: 'graphql-resolver-failed',
  [graphQlEventIds.requestRefused]: 'graphql-request-refused',
};
