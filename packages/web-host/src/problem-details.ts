import {
  CoreError,
  errorKindStatus,
  isOperationError,
  type Logger,
  type ProblemDetails,
} from '@corekit/abstractions';
import type { NextFunction, Request, Response } from 'express';
import { ZodError } from 'zod';
import { webHostEventIds } from './web-host-event-ids';

/** Media type of RFC 9457 problem details. */
export const problemContentType = 'application/problem+json';

/** Stable codes of the problems the web host itself answers with. */
export const webHostProblemCodes = {
  routeNotFound: 'ROUTE_NOT_FOUND',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  catalogEntryNotFound: 'CATALOG_ENTRY_NOT_FOUND',
  malformedJson: 'MALFORMED_JSON',
  requestBodyInvalid: 'REQUEST_BODY_INVALID',
  requestBodyTooLarge: 'REQUEST_BODY_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  upgradeRequired: 'UPGRADE_REQUIRED',
  tooManyConnections: 'TOO_MANY_CONNECTIONS',
  shuttingDown: 'HOST_SHUTTING_DOWN',
  /** The engine failed to start: only `/health*` and `/engine*` answer (start-failure-gate). */
  engineStartFailed: 'ENGINE_START_FAILED',
  internalError: 'INTERNAL_ERROR',
} as const;

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  426: 'Upgrade Required',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The problem type URI of a code: `ROUTE_NOT_FOUND` is `urn:corekit:problem:route-not-found`. */
export function problemType(code: string): string {
  return `urn:corekit:problem:${code.toLowerCase().replace(/_/g, '-')}`;
}

/** Builds a problem details body. */
export function createProblem(
  status: number,
  code: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): ProblemDetails {
  return { type: problemType(code), title: titles[status] ?? 'Error', status, detail, code, ...extensions };
}

/**
 * An error a route handler throws to answer with a given status and problem code (`CATALOG_ENTRY_NOT_FOUND`,
 * 404). The message becomes the problem's `detail`, so it must be safe to show.
 */
export class HttpProblem extends CoreError {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(code, message, details);
    this.name = 'HttpProblem';
    this.status = status;
    this.headers = headers;
  }
}

/** Writes a problem details answer. */
export function sendProblem(request: Request, response: Response, problem: ProblemDetails): void {
  response.status(problem.status).type(problemContentType).setHeader('Cache-Control', 'no-store');
  response.send(JSON.stringify({ ...problem, instance: request.originalUrl.split('?')[0] }));
}

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
}

/** Maps any error to a problem: never a stack trace, never an unexpected error's message. */
export function problemFromError(error: unknown): ProblemDetails {
  if (error instanceof HttpProblem) {
    return createProblem(error.status, error.code, error.message, { ...error.details });
  }
  if (isOperationError(error)) {
    return createProblem(errorKindStatus[error.kind], error.code, error.message, { ...error.details });
  }
  const parserError = error as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return createProblem(
        400,
        webHostProblemCodes.malformedJson,
        'The request body is not valid JSON; send a JSON document with Content-Type application/json',
      );
    case 'entity.too.large':
      return createProblem(
        413,
        webHostProblemCodes.requestBodyTooLarge,
        `The request body is larger than ${parserError.limit} bytes (Engine:Web:MaxRequestBodyBytes)`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return createProblem(
        415,
        webHostProblemCodes.unsupportedMediaType,
        'The request body encoding or charset is not supported; send UTF-8 JSON',
      );
    default:
      break;
  }
  if (error instanceof ZodError) {
    return createProblem(400, webHostProblemCodes.requestBodyInvalid, 'The request body is invalid', {
      errors: error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      })),
    });
  }
  if (error instanceof CoreError) {
    return createProblem(500, error.code, error.message);
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return createProblem(
      parserError.status,
      'REQUEST_REJECTED',
      `The request was rejected (HTTP ${parserError.status})`,
    );
  }
  return createProblem(
    500,
    webHostProblemCodes.internalError,
    'An unexpected error occurred; the host log has the details',
  );
}

/** The last error handler: logs server errors and answers with problem details. */
export function problemErrorHandler(logger: Logger) {
  return (error: unknown, request: Request, response: Response, next: NextFunction): void => {
    if (response.headersSent) {
      next(error);
      return;
    }
    const problem = problemFromError(error);
    // Refused stream clients are counted and logged by EventClients, once per interval (a flood is one record).
    if (problem.status >= 500 && problem.code !== webHostProblemCodes.tooManyConnections) {
      logger.log({
        level: 'error',
        eventId: webHostEventIds.requestFailed,
        category: 'web-host',
        message: `${request.method} ${request.originalUrl.split('?')[0]} failed: ${(error as Error)?.message ?? String(error)}`,
        errorCode: problem.code,
      });
    }
    if (error instanceof HttpProblem) {
      for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    }
    sendProblem(request, response, problem);
  };
}

/**
 * The handler after every route: 405 with `Allow` when the path exists for other methods (`allowedMethods`),
 * else 404 ROUTE_NOT_FOUND.
 */
export function routeNotFoundHandler(allowedMethods: (path: string) => string[]) {
  return (request: Request, response: Response): void => {
    const allowed = allowedMethods(request.path);
    if (allowed.length > 0) {
      const methods = [...new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed)];
      response.setHeader('Allow', methods.join(', '));
      sendProblem(
        request,
        response,
        createProblem(
          405,
          webHostProblemCodes.methodNotAllowed,
          `${request.method} is not allowed on ${request.path}; allowed: ${methods.join(', ')}`,
        ),
      );
      return;
    }
    sendProblem(
      request,
      response,
      createProblem(
        404,
        webHostProblemCodes.routeNotFound,
        `No route ${request.method} ${request.path}; GET /engine lists every surface and /openapi/v1.json documents every route`,
      ),
    );
  };
}
