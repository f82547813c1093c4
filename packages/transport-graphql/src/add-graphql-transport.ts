import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CoreError,
  behaviorRuntimeKey,
  transportAdapterKey,
  type EngineBuilder,
  type RegisteredBehavior,
  type TransportAdapter,
} from '@corekit/abstractions';
import { NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http';
import { toGraphQlError } from './graphql-errors';
import { limitsRule } from './graphql-limits';
import {
  graphQlEventIdNames,
  graphQlEventIdRange,
  graphQlEventIds,
  graphQlOptionsSchema,
  graphQlSectionPath,
  queryRule,
  type GraphQlOptions,
  type GraphQlOptionsInput,
} from './graphql-options';
import { buildGraphQlSchema, type GeneratedField } from './graphql-schema';
import { readBody } from './read-body';

/** Registration key of `addGraphQlTransport` (a second call is refused). */
export const graphQlRegistrationKey = '@corekit/transport-graphql';

const streamMarker = Symbol.for('@corekit/behavior-stream');
const isStreaming = (entry: RegisteredBehavior) =>
  Boolean((entry.behavior.output as unknown as Record<symbol, unknown>)[streamMarker]);

/** GraphQL gives absent optional arguments as missing and explicit nulls as null; zod optional wants undefined. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => entry !== null)
      .map(([key, entry]) => [key, withoutNulls(entry)]),
  );
}

interface RequestContext extends Record<PropertyKey, unknown> {
  readonly signal: AbortSignal;
}

/**
 * Registers the GraphQL adapter (`Engine:Transports` value `GraphQL`): a schema generated from the behaviors'
 * zod schemas, served by `graphql-http` at `Engine:GraphQL:Path` on the web host (GET for queries, POST for
 * all). Rule: a behavior is a Query field when its id is listed in `Queries` or its last segment is one of
 * `ReadVerbs` (get, list, summary...), unless `Mutations` lists it; every other behavior is a Mutation field.
 * Streaming behaviors are not served (GraphQL subscriptions are not offered). Errors carry `extensions.code`
 * from the error-kind table; depth and cost limits are validation rules.
 */
export function addGraphQlTransport(builder: EngineBuilder, options?: GraphQlOptionsInput): TransportAdapter {
  if (builder.hasRegistration(graphQlRegistrationKey)) {
    throw new CoreError('GRAPHQL_ALREADY_REGISTERED', 'addGraphQlTransport was called twice on this builder');
  }
  builder.markRegistration(graphQlRegistrationKey);
  const settings: GraphQlOptions = builder.configuration.bind(
    graphQlSectionPath,
    graphQlOptionsSchema,
    options,
  );
  const logger = builder.logger;
  const calls = builder.meter.counter(
    'corekit.transport.graphql.calls',
    'GraphQL root field calls by behavior id and outcome (ok or the extension code)',
  );
  const isQuery = queryRule(settings);
  let generated: { schema: GraphQLSchema; fields: GeneratedField[]; count: number } | undefined;
  let behaviors: (() => readonly RegisteredBehavior[]) | undefined;
  let mounted = false;

  const adapter: TransportAdapter = {
    name: 'GraphQL',
    mount({ engine, http }) {
      if (!http) return;
      mounted = true;
      const runtime = engine.resolve(behaviorRuntimeKey);
      behaviors = () => (runtime?.behaviors() ?? []).filter((entry) => !isStreaming(entry));
      const resolve = async (field: GeneratedField, args: Record<string, unknown>, context: unknown) => {
        const input = field.spreadArguments ? withoutNulls(args) : withoutNulls(args.input);
        try {
          const result = await runtime!.invoke(field.behaviorId, input ?? {}, {
            transport: 'graphql',
            signal: (context as RequestContext).signal,
          });
          calls.add(1, { behavior: field.behaviorId, outcome: 'ok' });
          return result;
        } catch (error) {
          const graphQlError = toGraphQlError(error, (unexpected) =>
            logger.log({
              level: 'error',
              eventId: graphQlEventIds.resolverFailed,
              category: 'transport-graphql',
              message: `GraphQL field ${field.fieldName} (behavior ${field.behaviorId}) failed: ${unexpected instanceof Error ? unexpected.message : String(unexpected)}`,
              behaviorId: field.behaviorId,
            }),
          );
          calls.add(1, { behavior: field.behaviorId, outcome: String(graphQlError.extensions.code) });
          throw graphQlError;
        }
      };
      const schema = () => {
        const current = behaviors!();
        if (!generated || generated.count !== current.length) {
          generated = { ...buildGraphQlSchema(current, isQuery, resolve), count: current.length };
        }
        return generated.schema;
      };
      const rules = [
        limitsRule({
          maxDepth: settings.MaxDepth,
          maxCost: settings.MaxCost,
          rootFieldCost: settings.BehaviorCost,
        }),
        ...(settings.Introspection ? [] : [NoSchemaIntrospectionCustomRule]),
      ];
      const handle = createHandler<IncomingMessage, RequestContext, RequestContext>({
        schema: () => schema(),
        validationRules: (_request, _args, specified) => [...specified, ...rules],
        context: (request) => request.context,
      });
      const handler = async (request: IncomingMessage, response: ServerResponse) => {
        const body = request.method === 'POST' ? await readBody(request, settings.MaxBodyBytes) : '';
        if (body === 'too-large') {
          logger.log({
            level: 'warn',
            eventId: graphQlEventIds.requestRefused,
            category: 'transport-graphql',
            message: `GraphQL request refused: the body exceeds Engine:GraphQL:MaxBodyBytes (${settings.MaxBodyBytes})`,
          });
          response.writeHead(413, { 'Content-Type': 'application/json; charset=utf-8' });
          response.end(
            JSON.stringify({
              errors: [
                {
                  message: `The body exceeds ${settings.MaxBodyBytes} bytes (Engine:GraphQL:MaxBodyBytes)`,
                  extensions: { code: 'PAYLOAD_TOO_LARGE' },
                },
              ],
            }),
          );
          return;
        }
        const aborted = new AbortController();
        response.on('close', () => {
          if (!response.writableFinished) aborted.abort();
        });
        const [answer, init] = await handle({
          method: request.method ?? 'GET',
          url: request.url ?? '/',
          headers: request.headers as Record<string, string>,
          body,
          raw: request,
          context: { signal: aborted.signal },
        });
        response.writeHead(init.status, init.statusText, init.headers as Record<string, string>);
        response.end(answer);
      };
      http.handle(settings.Path, ['GET', 'POST'], handler, {
        summary: 'GraphQL endpoint: one field per behavior (queries read, mutations change)',
        requireAuthorization: settings.RequireAuthorization || undefined,
      });
      logger.log({
        level: 'info',
        eventId: graphQlEventIds.mounted,
        category: 'transport-graphql',
        message: `GraphQL transport mounted at ${settings.Path}`,
        path: settings.Path,
      });
    },
    mountedOperations: () =>
      behaviors
        ? behaviors()
            .map((entry) => entry.behavior.id)
            .sort()
        : [],
  };

  builder.provide(transportAdapterKey('GraphQL'), adapter);
  builder.addEventIds({
    component: 'Transport: GraphQL',
    ranges: [graphQlEventIdRange],
    names: graphQlEventIdNames,
  });
  builder.addTechnologySurfaces(() => {
    const fields = generated?.fields ?? [];
    return [
      {
        id: 'transport-graphql',
        kind: 'transport',
        displayName: 'GraphQL transport',
        sourcePackage: '@corekit/transport-graphql',
        metadata: {
          transport: 'GraphQL',
          mounted,
          path: settings.Path,
          maxDepth: settings.MaxDepth,
          maxCost: settings.MaxCost,
          operations: adapter.mountedOperations!(),
          queries: fields.filter((field) => field.root === 'Query').map((field) => field.fieldName),
          mutations: fields.filter((field) => field.root === 'Mutation').map((field) => field.fieldName),
        },
      },
    ];
  });
  return adapter;
}
