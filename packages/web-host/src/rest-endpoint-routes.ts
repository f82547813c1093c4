import {
  behaviorAuthorizationCodes,
  behaviorErrorCodes,
  callableRuntimeKey,
  restPublicationKey,
  type Authorizer,
  type CallableRuntime,
  type Engine,
  type PublishedRestEndpoint,
} from '@corekit/abstractions';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { z, type ZodType } from 'zod';
import type { HostRoute, HttpMethod } from './host-route';
import type { OpenApiDocument, OpenApiSelection } from './openapi-document';
import { hasNonJsonBody } from './json-body';
import { HttpProblem, webHostProblemCodes } from './problem-details';

/** The OpenAPI document of `selection` as the caller of `request` may see it. */
export type DocumentFor = (
  selection: OpenApiSelection,
  request: IncomingMessage,
) => OpenApiDocument | Promise<OpenApiDocument>;

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The behavior input of a request: query parameters, then the JSON body, then path parameters, later wins (a
 * path parameter always names the resource). A body that is not a JSON object is the input itself, and only
 * when the request has no path or query parameters.
 */
export function requestInput(request: Request): unknown {
  const params = { ...(request.params as Record<string, string>) };
  const query = { ...(request.query as Record<string, unknown>) };
  const body: unknown = request.body;
  if (body === undefined || isPlainObject(body)) return { ...query, ...(body ?? {}), ...params };
  if (Object.keys(params).length === 0 && Object.keys(query).length === 0) return body;
  throw new HttpProblem(
    400,
    behaviorErrorCodes.inputInvalid,
    'A JSON body that is not an object cannot be merged with path or query parameters; send an object',
    {
      errors: [{ path: '(body)', message: 'expected a JSON object' }],
    },
  );
}

/** An object schema without the path parameters (they are documented as such), or undefined when not an object. */
function withoutPathParameters(schema: ZodType, parameters: readonly string[]): ZodType | undefined {
  const object = schema as unknown as {
    shape?: Record<string, unknown>;
    omit?: (mask: Record<string, true>) => ZodType;
  };
  if (!object.shape || typeof object.omit !== 'function') return undefined;
  const mask = Object.fromEntries(
    parameters.filter((name) => name in object.shape!).map((name) => [name, true as const]),
  );
  return object.omit(mask);
}

function pathParameters(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

const guardedResponses: Readonly<Record<number, { description: string }>> = {
  401: {
    description: `No credential the host accepts (problem code ${behaviorAuthorizationCodes.unauthenticated})`,
  },
  403: {
    description: `The authorize hook refused the caller (problem code ${behaviorAuthorizationCodes.forbidden})`,
  },
};

function endpointRoute(
  { descriptor, behavior }: PublishedRestEndpoint,
  callables: CallableRuntime,
  authorize: Authorizer | undefined,
): HostRoute {
  const guarded = behavior.authorization?.mode === 'required';
  const parameters = pathParameters(descriptor.path);
  const rest = withoutPathParameters(behavior.input, parameters);
  const documentedInput = bodyMethods.has(descriptor.method)
    ? { body: rest ?? behavior.input }
    : rest
      ? { query: rest }
      : undefined;
  return {
    method: descriptor.method.toLowerCase() as HttpMethod,
    path: descriptor.path,
    operationId: descriptor.endpointName,
    summary: descriptor.summary ?? `${descriptor.method} ${descriptor.path}`,
    description: `Behavior \`${descriptor.behaviorId}\` of module \`${descriptor.sourceModuleId}\`, published by ${descriptor.authoringStyle} (candidate \`${descriptor.candidateId}\`). Input: query parameters, JSON body and path parameters merged (later wins).`,
    tags: descriptor.tagNames.length > 0 ? descriptor.tagNames : [descriptor.sourceModuleId],
    parameters: Object.fromEntries(
      parameters.map((name) => [name, `Path parameter, part of the behavior input (\`${name}\`)`]),
    ),
    apiMajorVersion: descriptor.apiMajorVersion,
    openApiDocumentNames: descriptor.openApiDocumentNames,
    ...(documentedInput ? { documentedInput } : {}),
    responses: {
      [descriptor.successStatus]: {
        description: 'The behavior answer, shaped by its output schema',
        schema: behavior.output,
      },
      204: { description: 'The behavior answered nothing' },
      400: {
        description: `The input does not match the behavior input schema (problem code ${behaviorErrorCodes.inputInvalid}; errors lists each issue)`,
      },
      503: { description: `The engine has not started yet (problem code ${behaviorErrorCodes.unavailable})` },
      ...(guarded ? guardedResponses : {}),
    },
    handler: async (request: Request, response: Response) => {
      if (bodyMethods.has(descriptor.method) && hasNonJsonBody(request)) {
        throw new HttpProblem(
          415,
          webHostProblemCodes.unsupportedMediaType,
          'This endpoint takes a UTF-8 JSON body (Content-Type application/json) or none',
        );
      }
      const input = requestInput(request);
      const controller = new AbortController();
      const abort = () => {
        if (!response.writableFinished) controller.abort();
      };
      response.once('close', abort);
      let output: unknown;
      try {
        // The one invoke path of every transport (docs/adr/0001-one-callable.md): the behavior's resource, the
        // host's authorize hook asked once with policy and resource, then validation and the handler.
        output = await callables.invoke(descriptor.behaviorId, input, {
          transport: 'rest',
          endpointId: descriptor.id,
          authorizer: authorize,
          request: { method: request.method, path: request.path, headers: request.headers, raw: request },
          signal: controller.signal,
        });
      } finally {
        response.off('close', abort);
      }
      if (output === undefined) response.status(204).end();
      else response.status(descriptor.successStatus).json(output);
    },
  };
}

function documentRoute(
  path: string,
  rel: string,
  summary: string,
  selection: OpenApiSelection,
  document: DocumentFor,
): HostRoute {
  return {
    method: 'get',
    path,
    rel,
    summary,
    tags: ['Reference'],
    responses: { 200: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
    handler: async (request, response) => response.json(await document(selection, request)),
  };
}

/**
 * The published REST endpoints (`/engine/rest-endpoints`, exactly) as host routes, plus one OpenAPI document
 * per other API major version (`/openapi/v{major}.json`) and per document name and version
 * (`/openapi/{documentName}/v{major}.json`) when `document` is given (OpenAPI enabled). `/openapi/v1.json`
 * is the host's own route. A behavior declaring `authorization: { mode: 'required' }` asks `authorize` (the
 * host's hook) with its policy before its input is read.
 */
export function restEndpointRoutes(
  engine: Engine,
  document?: DocumentFor,
  authorize?: Authorizer,
): HostRoute[] {
  const publication = engine.resolve(restPublicationKey);
  const callables = engine.resolve(callableRuntimeKey);
  const endpoints = publication?.endpoints() ?? [];
  if (!callables || endpoints.length === 0) return [];
  const routes = endpoints.map((endpoint) => endpointRoute(endpoint, callables, authorize));
  if (!document) return routes;
  const versions = [...new Set(endpoints.map(({ descriptor }) => descriptor.apiMajorVersion))].sort(
    (left, right) => left - right,
  );
  for (const majorVersion of versions.filter((version) => version !== 1)) {
    routes.push(
      documentRoute(
        `/openapi/v${majorVersion}.json`,
        `openapi:v${majorVersion}`,
        `OpenAPI document of API major version ${majorVersion}`,
        { majorVersion },
        document,
      ),
    );
  }
  const named = new Set(
    endpoints.flatMap(({ descriptor }) =>
      descriptor.openApiDocumentNames.map((name) => `${name}\u0000${descriptor.apiMajorVersion}`),
    ),
  );
  for (const key of [...named].sort()) {
    const [documentName, version] = key.split('\u0000');
    const majorVersion = Number(version);
    routes.push(
      documentRoute(
        `/openapi/${documentName}/v${majorVersion}.json`,
        `openapi:${documentName}:v${majorVersion}`,
        `OpenAPI document "${documentName}", API major version ${majorVersion}: its module endpoints only`,
        { majorVersion, documentName },
        document,
      ),
    );
  }
  return routes;
}
