import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { ZodType } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON answer computed without express: the status and the body to serialize. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** One documented response of a route. */
export interface RouteResponse {
  readonly description: string;
  /** Body schema; omit for bodies that are not JSON documents (a stream, an HTML page). */
  readonly schema?: ZodType;
  /** Default `application/json` when `schema` is set. */
  readonly contentType?: string;
}

/**
 * A route served and documented by the web host: registered on the express app and described in
 * `/openapi/v1.json`. Hosts and modules add their own through `host.addRoute(route)`.
 */
export interface HostRoute {
  readonly method: HttpMethod;
  /** Express path syntax with `:name` parameters (`/api/orders/:orderId`). */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /** Stable link name in the `/engine` index; routes without one are not listed there. */
  readonly rel?: string;
  /** Descriptions of the path parameters, by name. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** Validates the JSON body before the handler runs; an invalid body answers 400 with the zod issues. */
  readonly requestBody?: ZodType;
  /** Documented responses by status (problem responses for 4xx/5xx are added automatically). */
  readonly responses: Readonly<Record<number, RouteResponse>>;
  /** Guard the route with the `authorize` hook. Default: true for `/engine` routes when configured, else false. */
  readonly requireAuthorization?: boolean;
  /** Health routes keep answering while the host drains; every other route answers 503 then. */
  readonly servedWhileDraining?: boolean;
  /** OpenAPI operationId. Default: derived from the method and path; a duplicate falls back to that default. */
  readonly operationId?: string;
  /**
   * API major version of a published module endpoint: the route appears in `/openapi/v{major}.json` only.
   * Routes without one (the host's own) are version-neutral and appear in every host document.
   */
  readonly apiMajorVersion?: number;
  /** OpenAPI document names (`/openapi/{documentName}/v{major}.json`) the route belongs to. */
  readonly openApiDocumentNames?: readonly string[];
  /**
   * Input the handler validates itself (documented, never validated by the host): `query` is an object schema
   * whose properties become query parameters, `body` the JSON request body.
   */
  readonly documentedInput?: { readonly query?: ZodType; readonly body?: ZodType };
  /** Middleware run before the handler (an operation's own body parser). */
  readonly preHandlers?: readonly RequestHandler[];
  /** The route parses its own body (the host's JSON parser skips it): raw-body callbacks, adapters. */
  readonly ownsBodyParsing?: boolean;
  /** The handler checks authorization itself (operations): documented as guarded, no host guard added. */
  readonly guardedByHandler?: boolean;
  /** Served but left out of the OpenAPI document. */
  readonly excludeFromDescription?: boolean;
  handler(request: Request, response: Response): unknown;
  /**
   * The same answer as `handler`, from the bare request, for unguarded GET routes without parameters that must
   * be cheap (the health routes): the host may serve them before express sees the request.
   */
  readonly answer?: (request: IncomingMessage) => JsonAnswer | Promise<JsonAnswer>;
}

const parameterPattern = /^:([A-Za-z_$][\w$]*)$/;

/** The segments of an express path: literals and `:name` parameters. */
export function pathSegments(path: string): Array<{ literal: string } | { parameter: string }> {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const match = parameterPattern.exec(segment);
      return match ? { parameter: match[1] } : { literal: segment };
    });
}

/** `/engine/x/:id` → `/engine/x/{id}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');
}

/**
 * Orders routes so that a literal segment always wins over a parameter at the same position
 * (`/engine/cdc-captures/runtime` before `/engine/cdc-captures/:cdcCaptureId`). A total order (needed by
 * Array.sort): compare the parameter flags of the segments left to right, then the segment count; equal
 * shapes keep registration order (the sort is stable).
 */
export function bySpecificity(a: HostRoute, b: HostRoute): number {
  const left = pathSegments(a.path).map((segment) => ('parameter' in segment ? 1 : 0));
  const right = pathSegments(b.path).map((segment) => ('parameter' in segment ? 1 : 0));
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    if (left[index] !== right[index]) return left[index] - right[index];
  }
  return left.length - right.length;
}

/**
 * The segments of a request path as express routes it (one trailing slash allowed), or undefined for a path
 * with an empty segment (`//engine/status`, `/engine//status`), which no route serves: such a path answers
 * 404, never 405 for the very method its route takes.
 */
export function requestSegments(path: string): string[] | undefined {
  const trimmed = path.slice(path.startsWith('/') ? 1 : 0, path.endsWith('/') ? -1 : undefined);
  if (trimmed === '') return [];
  const segments = trimmed.split('/');
  return segments.includes('') ? undefined : segments;
}

/** True when `path` (a request path) matches the route's pattern, as express routes it (see requestSegments). */
export function matchesPath(route: HostRoute, path: string): boolean {
  const pattern = pathSegments(route.path);
  const actual = requestSegments(path);
  if (actual === undefined || pattern.length !== actual.length) return false;
  return pattern.every((segment, index) => 'parameter' in segment || segment.literal === actual[index]);
}

/** True when two express paths match the same requests (parameter names aside). */
export function samePattern(left: string, right: string): boolean {
  return left.replace(/:[^/]+/g, ':') === right.replace(/:[^/]+/g, ':');
}
