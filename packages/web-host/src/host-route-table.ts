import type { IncomingMessage, ServerResponse } from 'node:http';
import { CoreError, type Logger } from '@corekit/abstractions';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { ZodType } from 'zod';
import { fastAnswersOf, serveFastAnswer, type FastAnswer } from './fast-answers';
import { bySpecificity, matchesPath, samePattern, type HostRoute } from './host-route';
import { routeTemplates } from './route-templates';

/** What the table asks about authorization: whether a route is guarded, and the middleware that guards it. */
export interface RouteGuards {
  isGuarded(route: HostRoute): boolean;
  routeGuards(route: HostRoute): RequestHandler[];
}

/**
 * The host's mutable table of documented routes and the router built from it. Routes are added at creation
 * (`push`, served from the next `rebuild`) and later (`add`: served at once); every rebuild derives, from the
 * routes in specificity order, the express router, the fast answers (GET routes served before express) and the
 * route templates of the HTTP telemetry, then tells its listeners (the OpenAPI cache).
 */
export class HostRouteTable {
  private readonly documented: HostRoute[] = [];
  private router = express.Router();
  private fastAnswers = new Map<string, FastAnswer>();
  private templateOf = routeTemplates([]);
  private readonly rebuildListeners: Array<() => void> = [];

  constructor(private readonly guards: RouteGuards) {}

  /** The number of documented routes (served or waiting for the next rebuild). */
  get size(): number {
    return this.documented.length;
  }

  /** Adds routes to serve from the next `rebuild()`. */
  push(...routes: readonly HostRoute[]): void {
    this.documented.push(...routes);
  }

  /** Adds and serves one route; a second route on the same method and path is refused (HOST_ROUTE_INVALID). */
  add(route: HostRoute): void {
    if (
      this.documented.some((existing) => existing.method === route.method && existing.path === route.path)
    ) {
      throw new CoreError(
        'HOST_ROUTE_INVALID',
        `${route.method.toUpperCase()} ${route.path} is already registered`,
      );
    }
    this.documented.push(route);
    this.rebuild();
  }

  /** Every documented route, most specific first (equal shapes in registration order). */
  routes(): HostRoute[] {
    return [...this.documented].sort(bySpecificity);
  }

  /** The route already serving requests of this method on the same pattern, if any. */
  clashWith(method: string, path: string): HostRoute | undefined {
    return this.documented.find((route) => route.method === method && samePattern(route.path, path));
  }

  /** True when a route on this path keeps answering while the host drains (the health routes). */
  servedWhileDraining(path: string): boolean {
    return this.documented.some((route) => route.servedWhileDraining && matchesPath(route, path));
  }

  /** True when the route of this request parses its own body (the host's JSON parser skips it). */
  ownsBody(request: Pick<Request, 'method' | 'path'>): boolean {
    const method = request.method.toLowerCase();
    return this.documented.some(
      (route) => route.ownsBodyParsing && route.method === method && matchesPath(route, request.path),
    );
  }

  /** The methods served on a path, upper case (the `Allow` header of a 405). */
  methodsAt(path: string): string[] {
    return this.documented
      .filter((route) => matchesPath(route, path))
      .map((route) => route.method.toUpperCase());
  }

  /** Routes the request to the routes of the last rebuild. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    this.router(request, response, next);
  };

  /** Serves a fast answer without express; false when the request is not one (see serveFastAnswer). */
  serveFast(
    request: IncomingMessage,
    response: ServerResponse,
    context: { readonly draining: boolean; readonly logger: Logger },
  ): boolean {
    return serveFastAnswer(this.fastAnswers, request, response, context);
  }

  /** True for the exact paths of the fast answers (served without a telemetry span). */
  isFastAnswer(path: string): boolean {
    return this.fastAnswers.has(path);
  }

  /** The route template a request matched (the fast answers' exact paths first), for the HTTP telemetry. */
  routeTemplate(method: string, path: string): string | undefined {
    if (this.fastAnswers.has(path)) return path;
    return this.templateOf(method === 'HEAD' ? 'get' : method.toLowerCase(), path);
  }

  /** Calls `listener` after every rebuild. */
  onRebuild(listener: () => void): void {
    this.rebuildListeners.push(listener);
  }

  /** Serves the documented routes as they are now. */
  rebuild(): void {
    const routesBySpecificity = this.routes();
    this.fastAnswers = fastAnswersOf(this.documented, (route) => this.guards.isGuarded(route));
    this.templateOf = routeTemplates(routesBySpecificity);
    const next = express.Router();
    for (const route of routesBySpecificity) next[route.method](route.path, ...this.handlersOf(route));
    this.router = next;
    for (const listener of this.rebuildListeners) listener();
  }

  private handlersOf(route: HostRoute): RequestHandler[] {
    return [
      ...this.guards.routeGuards(route),
      ...(route.preHandlers ?? []),
      ...(route.requestBody ? [validateBody(route.requestBody)] : []),
      (request, response) => route.handler(request, response) as void,
    ];
  }
}

/** Replaces the JSON body by its parsed value; a ZodError answers 400 with the issues (problem details). */
function validateBody(schema: ZodType): RequestHandler {
  return (request, _response, next) => {
    request.body = schema.parse(request.body ?? {});
    next();
  };
}
