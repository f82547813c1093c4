import type { Engine, Logger } from '@corekit/abstractions';
import express, { type Express } from 'express';
import type { BrowserSessionGate } from './browser-session-gate';
import { boundedBodyParser } from './bounded-body-parser';
import type { HostRouteTable } from './host-route-table';
import { utf8JsonBody } from './json-body';
import { problemErrorHandler, routeNotFoundHandler } from './problem-details';
import type { RequestDrain } from './request-drain';
import { startFailureGate } from './start-failure-gate';
import type { WebHostConfiguration } from './web-host-options';

/** What the request pipeline is made of. */
export interface HostAppParts {
  readonly engine: Engine;
  readonly table: HostRouteTable;
  readonly drain: RequestDrain;
  readonly sessions: BrowserSessionGate | undefined;
  readonly settings: Pick<WebHostConfiguration, 'MaxRequestBodyBytes' | 'LingerTimeout'>;
  readonly logger: Logger;
}

/**
 * The two express apps of a host. `app` (the one users add routes to) parses JSON bodies within
 * `Engine:Web:MaxRequestBodyBytes` (unless the route parses its own) and routes to the route table; `pipeline`
 * wraps it: the start-failure gate, the drain gate, then `app`, then 404/405, the browser login redirect and
 * problem details for every error.
 */
export function createHostApps(parts: HostAppParts): { app: Express; pipeline: Express } {
  const { table, settings } = parts;
  const jsonBody = boundedBodyParser(
    utf8JsonBody(settings.MaxRequestBodyBytes, false),
    settings.MaxRequestBodyBytes,
    settings.LingerTimeout,
  );
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((request, response, next) =>
    table.ownsBody(request) ? next() : jsonBody(request, response, next),
  );
  app.use(table.middleware);

  const pipeline = express();
  pipeline.disable('x-powered-by');
  pipeline.use(startFailureGate(parts.engine));
  pipeline.use(parts.drain.middleware);
  pipeline.use(app);
  pipeline.use(routeNotFoundHandler((path) => table.methodsAt(path)));
  if (parts.sessions) pipeline.use(parts.sessions.loginRedirect());
  pipeline.use(problemErrorHandler(parts.logger));
  return { app, pipeline };
}
