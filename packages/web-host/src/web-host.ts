import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Engine, Logger } from '@corekit/abstractions';
import type { WorkerHost } from '@corekit/worker-host';
import type { Express } from 'express';
import type { HostAuthorization } from './host-authorization';
import { HostListener } from './host-listener';
import type { HostRoute } from './host-route';
import type { HostRouteTable } from './host-route-table';
import { upgradeDispatcher } from './http-shutdown';
import { serveWithTelemetry } from './http-server-telemetry';
import type { OpenApiDocument, OpenApiSelection } from './openapi-document';
import type { OpenApiDocuments } from './openapi-documents';
import type { RequestDrain } from './request-drain';
import type { WebHostConfiguration } from './web-host-options';
import type { UpgradeHandler } from './websocket-events';

/** A running (or ready to run) web host. */
export interface WebHost {
  readonly engine: Engine;
  /** The lifecycle the host runs on (signals, exit codes); shared when the host was composed with one. */
  readonly workerHost: WorkerHost;
  /**
   * The express app that serves every route: add your own with `host.app.get(...)` (listed in OpenAPI without
   * a description) or, better, with `host.addRoute(...)` (fully documented). Problem details answer for
   * anything no route handles.
   */
  readonly app: Express;
  /** The complete request listener (routes, drain gate, 404/405 and error handling) for a server of your own. */
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void;
  /** The HTTP server once `listen()` was called. */
  readonly server: Server | undefined;
  /** `Engine:Web` after defaults. */
  readonly settings: WebHostConfiguration;
  /** The live transports served, from `Engine:Transports`. */
  readonly transports: readonly string[];
  /** Registers and documents a route. Returns the host for chaining. */
  addRoute(route: HostRoute): WebHost;
  /** Every documented route, most specific first. */
  routes(): readonly HostRoute[];
  /** Routes HTTP upgrade requests on `path` (exact) to `handler`; other upgrade paths answer 404. */
  onUpgrade(path: string, handler: UpgradeHandler): WebHost;
  /**
   * An OpenAPI 3.1 document. Default `{ majorVersion: 1 }`: `/openapi/v1.json`, every host route plus the module
   * endpoints of API major version 1; `{ majorVersion, documentName }` is `/openapi/{documentName}/v{major}.json`.
   * `{ engineRoutes: false }` leaves out the `/engine` routes: what a caller the authorize hook does not admit
   * is served when `Engine:Web:EngineRoutes:Exposure` guards them.
   */
  openApiDocument(
    selection?: OpenApiSelection,
    options?: { readonly engineRoutes?: boolean },
  ): OpenApiDocument;
  /**
   * Checks the configuration (an unknown key fails before the port opens), listens, then starts the engine (so
   * `/health/live` and `/health/startup` answer during startup). Resolves once the engine has started. A failed
   * start ends the process by default (listener and transport ports closed, the report on stderr, exit code 1)
   * and rejects; with `exitOnStartFailure: false` it resolves and the health routes show the failure.
   */
  listen(): Promise<{ readonly port: number; readonly url: string }>;
  /** Graceful stop without ending the process: drain, `engine.stop()`, close the server. Idempotent. */
  close(): Promise<void>;
}

/** The parts a web host is composed of (see createWebHost). */
export interface WebHostParts {
  readonly workerHost: WorkerHost;
  readonly logger: Logger;
  readonly settings: WebHostConfiguration;
  /** The live transports served, `RestApi` first. */
  readonly transports: readonly string[];
  readonly authorization: HostAuthorization;
  readonly table: HostRouteTable;
  readonly documents: OpenApiDocuments;
  readonly drain: RequestDrain;
  /** The app users add routes to, and the full pipeline around it (see createHostApps). */
  readonly app: Express;
  readonly pipeline: Express;
  /** The port `listen()` binds; may throw (an invalid `PORT`). */
  port(): number;
  readonly bindAddress: string | undefined;
  /** Runs once the engine started: mounts the operations of package modules. */
  afterStart(): void;
}

/**
 * The web host over its parts: each member delegates to the part that does the job. An object of own members
 * (as `createWebHost` always returned), so `host.listen` and the others also work detached from `host`.
 */
export function composeWebHost(parts: WebHostParts): WebHost {
  const { workerHost, table, drain, logger } = parts;
  const upgradeHandlers = new Map<string, UpgradeHandler>();
  const telemetryRoutes = {
    routeOf: (method: string, path: string) => table.routeTemplate(method, path),
    traced: (path: string) => !table.isFastAnswer(path),
  };
  const handler = (request: IncomingMessage, response: ServerResponse) =>
    serveWithTelemetry(request, response, telemetryRoutes, () => {
      if (!table.serveFast(request, response, { draining: drain.isDraining, logger }))
        parts.pipeline(request, response);
    });
  const listener = new HostListener({
    workerHost,
    logger,
    port: parts.port,
    bindAddress: parts.bindAddress,
    handler,
    upgrade: upgradeDispatcher(upgradeHandlers, () => drain.isDraining),
    transports: parts.transports,
    afterStart: parts.afterStart,
  });
  const host: WebHost = {
    engine: workerHost.engine,
    workerHost,
    app: parts.app,
    handler,
    get server() {
      return listener.server;
    },
    settings: parts.settings,
    transports: parts.transports,
    addRoute(route) {
      parts.authorization.refuseUnservable(route);
      table.add(route);
      return host;
    },
    routes: () => table.routes(),
    onUpgrade(path, upgradeHandler) {
      upgradeHandlers.set(path, upgradeHandler);
      return host;
    },
    openApiDocument: (selection, options) => parts.documents.document(selection, options),
    listen: () => listener.listen(),
    // The participants close the server and unmount every transport adapter once the engine stopped.
    async close() {
      await workerHost.stop('host closed');
    },
  };
  return host;
}
