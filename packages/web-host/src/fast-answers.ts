import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@corekit/abstractions';
import type { HostRoute } from './host-route';
import { problemContentType, problemFromError } from './problem-details';
import { webHostEventIds } from './web-host-event-ids';

export type FastAnswer = NonNullable<HostRoute['answer']>;

/** The routes that may be served before express: unguarded GET routes without parameters that have an `answer`. */
export function fastAnswersOf(
  routes: readonly HostRoute[],
  isGuarded: (route: HostRoute) => boolean,
): Map<string, FastAnswer> {
  return new Map(
    routes
      .filter(
        (route) => route.answer && route.method === 'get' && !route.path.includes(':') && !isGuarded(route),
      )
      .map((route) => [route.path, route.answer!]),
  );
}

/**
 * Serves a GET or HEAD request on an exact path of `answers` without express (the health routes: what
 * orchestrators poll most). Returns false when the request is not one of them, for express to handle.
 */
export function serveFastAnswer(
  answers: ReadonlyMap<string, FastAnswer>,
  request: IncomingMessage,
  response: ServerResponse,
  context: { readonly draining: boolean; readonly logger: Logger },
): boolean {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const answer = answers.get(path);
  if (!answer) return false;
  const write = (status: number, contentType: string, body: unknown) => {
    const payload = JSON.stringify(body);
    response.statusCode = status;
    response.setHeader('Content-Type', `${contentType}; charset=utf-8`);
    response.setHeader('Content-Length', Buffer.byteLength(payload));
    response.setHeader('Cache-Control', 'no-store');
    if (context.draining) response.setHeader('Connection', 'close');
    response.end(method === 'HEAD' ? undefined : payload);
  };
  const fail = (error: unknown) => {
    const problem = problemFromError(error);
    context.logger.log({
      level: 'error',
      eventId: webHostEventIds.requestFailed,
      category: 'web-host',
      message: `${method} ${path} failed: ${(error as Error)?.message ?? error}`,
      errorCode: problem.code,
    });
    write(problem.status, problemContentType, { ...problem, instance: path });
  };
  try {
    const result = answer(request);
    if (result instanceof Promise)
      result.then((value) => write(value.status, 'application/json', value.body), fail);
    else write(result.status, 'application/json', result.body);
  } catch (error) {
    fail(error);
  }
  return true;
}
