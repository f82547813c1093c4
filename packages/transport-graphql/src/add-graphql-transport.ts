import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  callableRuntimeKey,
  type EngineBuilder,
  type RegisteredCallable,
  type TransportAdapter,
} from '@corekit/abstractions';
import {
  beginTransportRegistration,
  readBoundedBody,
  servedCallables,
  type TransportDescription,
} from '@corekit/transport-kit';
import { NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http';
import { boundedParse } from './graphql-document-scan';
import { boundedError, toGraphQlError } from './graphql-errors';
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

/** Registration key of `addGraphQlTransport` (a second call is refused). */
export const graphQlRegistrationKey = '@corekit/transport-graphql';

const graphQlTransport: TransportDescription<GraphQlOptions> = {
  transport: 'GraphQL',
  packageName: graphQlRegistrationKey,
  functionName: 'addGraphQlTransport',
  section: { path: graphQlSectionPath, schema: graphQlOptionsSchema },
  calls: {
    name: 'corekit.transport.graphql.calls',
    description: 'GraphQL root field calls by behavior id and outcome (ok or the extension code)',
  },
  eventIds: { component: 'Transport: GraphQL', ranges: [graphQlEventIdRange], names: graphQlEventIdNames },
  displayName: 'GraphQL transport',
};

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
  readonly request: IncomingMessage;
}

/**
 * Registers the GraphQL adapter (`Engine:Transports` value `GraphQL`): a schema generated from the behaviors'
 * zod schemas, served by `graphql-http` at `Engine:GraphQL:Path` on the web host (GET for queries, POST for
 * all). Rule: a behavior is a Query field when its id is listed in `Queries` or its last segment is one of
 * `ReadVerbs` (get, list, summary...), unless `Mutations` lists it; every other behavior is a Mutation field.
 * Streaming behaviors are not served (GraphQL subscriptions are not offered). Errors carry `extensions.code`
 * from the error-kind table. Token count and selection depth are bounded before a syntax tree is built
 * (`boundedParse`); depth and cost are validation rules.
 */
export function addGraphQlTransport(builder: EngineBuilder, options?: GraphQlOptionsInput): TransportAdapter {
  const registration = beginTransportRegistration(builder, graphQlTransport, options);
  const { settings, logger, calls, category } = registration;
  const isQuery = queryRule(settings);
  let generated: { schema: GraphQLSchema; fields: GeneratedField[]; count: number } | undefined;
  let behaviors: (() => readonly RegisteredCallable[]) | undefined;
  let mounted = false;

  const adapter: TransportAdapter = {
    name: 'GraphQL',
    mount({ engine, http, authorize, descriptionsGuarded }) {
      if (!http) return;
      mounted = true;
      const callables = engine.resolve(callableRuntimeKey)!;
      behaviors = servedCallables(callables, settings.Operations);
      const resolve = async (field: GeneratedField, args: Record<string, unknown>, context: unknown) => {
        const input = field.spreadArguments ? withoutNulls(args) : withoutNulls(args.input);
        const { request } = context as RequestContext;
        try {
          // The one invoke path (docs/adr/0001-one-callable.md): resource, authorization, validation, span.
          const result = await callables.invoke(field.behaviorId, input ?? {}, {
            transport: 'graphql',
            authorizer: authorize,
            request: {
              method: request.method ?? 'POST',
              path: settings.Path,
              headers: request.headers,
              raw: request,
            },
            signal: (context as RequestContext).signal,
          });
          calls.add(1, { behavior: field.behaviorId, outcome: 'ok' });
          return result;
        } catch (error) {
          const graphQlError = toGraphQlError(error, (unexpected) =>
            logger.log({
              level: 'error',
              eventId: graphQlEventIds.resolverFailed,
              category,
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
        ...((settings.Introspection ?? !descriptionsGuarded) ? [] : [NoSchemaIntrospectionCustomRule]),
      ];
      const handle = createHandler<IncomingMessage, RequestContext, RequestContext>({
        schema: () => schema(),
        parse: boundedParse({ maxTokens: settings.MaxTokens, maxDepth: settings.MaxDepth }),
        validationRules: (_request, _args, specified) => [...specified, ...rules],
        context: (request) => request.context,
        formatError: boundedError,
      });
      const handler = async (request: IncomingMessage, response: ServerResponse) => {
        const body = request.method === 'POST' ? await readBoundedBody(request, settings.MaxBodyBytes) : '';
        if (body === 'too-large') {
          logger.log({
            level: 'warn',
            eventId: graphQlEventIds.requestRefused,
            category,
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
          context: { signal: aborted.signal, request },
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
        category,
        message: `GraphQL transport mounted at ${settings.Path}`,
        path: settings.Path,
      });
    },
    mountedOperations: () =>
      behaviors
        ? behaviors()
            .map((entry) => entry.callable.id)
            .sort()
        : [],
  };

  return registration.complete(adapter, () => {
    const fields = generated?.fields ?? [];
    return {
      mounted,
      metadata: {
        path: settings.Path,
        maxTokens: settings.MaxTokens,
        maxDepth: settings.MaxDepth,
        maxCost: settings.MaxCost,
        queries: fields.filter((field) => field.root === 'Query').map((field) => field.fieldName),
        mutations: fields.filter((field) => field.root === 'Mutation').map((field) => field.fieldName),
      },
    };
  });
}
