import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  browserSessionsKey,
  CoreError,
  operatorAuditKey,
  type Engine,
  type HttpMount,
  type Logger,
} from '@corekit/abstractions';
import { createWorkerHost, type EngineSource, type WorkerHost } from '@corekit/worker-host';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { BrowserSessionGate } from './browser-session-gate';
import { catalogRoutes } from './catalog-routes';
import { HostOperatorAudit } from './operator-audit';
import { engineSurfaceRoutes, healthRoutes, type EngineLink } from './engine-routes';
import { authorizeOperation, hostAuthorizer } from './operation-authorization';
import { operationRoute, type OperationRouteContext } from './operation-routes';
import { EventClients } from './event-clients';
import { fastAnswersOf, serveFastAnswer, type FastAnswer } from './fast-answers';
import { serveWithTelemetry } from './http-server-telemetry';
import { routeTemplates } from './route-templates';
import { createDetailsPolicy, engineRoutesGuarded } from './health-exposure';
import { EngineExposureGate } from './engine-exposure-gate';
import { listenError } from './listen-error';
import { utf8JsonBody } from './json-body';
import { bySpecificity, matchesPath, samePattern, toOpenApiPath, type HostRoute } from './host-route';
import {
  buildOpenApiDocument,
  isSelectedRoute,
  type OpenApiDocument,
  type OpenApiSelection,
  type UndocumentedRoute,
} from './openapi-document';
import { problemErrorHandler, routeNotFoundHandler } from './problem-details';
import { httpShutdownParticipant, upgradeDispatcher } from './http-shutdown';
import { RequestDrain } from './request-drain';
import { restEndpointRoutes } from './rest-endpoint-routes';
import { openApiRoute, scalarRoutes } from './scalar-reference';
import { mountBehaviorStreams } from './behavior-streams';
import { serverSentEventsRoutes } from './server-sent-events';
import { readTransportNames, resolveTransports } from './transports';
import { webHostEventIds } from './web-host-event-ids';
import {
  webHostConfigurationSchema,
  type WebHostConfiguration,
  type WebHostOptions,
} from './web-host-options';
import { isWorkerHost, portFromEnvironment, webHostArguments } from './web-host-source';
import { WebSocketEvents, webSocketEventsRoute, type UpgradeHandler } from './websocket-events';
import { boundedBodyParser } from './bounded-body-parser';
import { failsStartOnThrow, startFailureGate, webHostFailurePhases } from './start-failure-gate';

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

/**
 * Creates the web host. Typical use:
 * `const builder = createEngineBuilder(); addHttpHealth(builder); await createWebHost(builder).listen();`
 * Also `createWebHost(engine, options)`, `createWebHost(workerHost, options)` or `createWebHost({ builder, port, authorize })`.
 * Fails at once (CoreError) on invalid `Engine:Web` configuration or an unavailable transport.
 */
export function createWebHost(
  first: EngineSource | WorkerHost | WebHostOptions,
  second: WebHostOptions = {},
): WebHost {
  const { options, source } = webHostArguments(first, second);
  const handleSignals = options.handleSignals ?? true;
  const workerHost = isWorkerHost(source)
    ? source
    : createWorkerHost(source, {
        handleSignals,
        exitProcess: options.exitProcess ?? handleSignals,
        exitOnStartFailure: options.exitOnStartFailure ?? true,
        logger: options.logger,
        exit: options.exit,
        reportStartupError: options.reportStartupError,
        environment: options.environment,
      });
  const engine = workerHost.engine;
  const logger: Logger = options.logger ?? workerHost.logger;
  const settings = failsStartOnThrow(
    workerHost,
    () =>
      engine.configuration.bind('Engine:Web', webHostConfigurationSchema) as unknown as WebHostConfiguration,
  );
  const transports = failsStartOnThrow(workerHost, () =>
    resolveTransports(engine, readTransportNames(engine.configuration)),
  );
  const title = options.title ?? 'Core host';
  // Browser sessions (a package provides them, `@corekit/console`): the hook is asked with the session's principal.
  const sessionAuthority = engine.resolve(browserSessionsKey);
  const sessions = sessionAuthority ? new BrowserSessionGate(sessionAuthority) : undefined;
  const authorize = options.authorize && sessions ? sessions.wrap(options.authorize) : options.authorize;
  const audit = new HostOperatorAudit(engine.resolve(operatorAuditKey), sessions);
  const authorizer = hostAuthorizer(authorize, logger);
  // `Engine:Web:EngineRoutes` checked against the authorize hook: a refusal is a start failure like the section's.
  const guardsEngineRoutes = failsStartOnThrow(workerHost, () =>
    engineRoutesGuarded(settings.EngineRoutes, options.environment ?? process.env, authorize, logger),
  );
  /** The one decision of every operator surface (routes, operations, the WebSocket upgrade, OpenAPI). */
  const gate = new EngineExposureGate(guardsEngineRoutes, authorize, logger);
  const isEnginePath = (path: string) => path === '/engine' || path.startsWith('/engine/');
  const isGuarded = (route: HostRoute) =>
    route.requireAuthorization ??
    (guardsEngineRoutes && (route.path === '/engine' || route.path.startsWith('/engine/')));

  const documented: HostRoute[] = [];
  let router = express.Router();
  const cachedDocuments = new Map<string, OpenApiDocument>();
  const drain = new RequestDrain((request) =>
    documented.some((route) => route.servedWhileDraining && matchesPath(route, request.path)),
  );
  const eventClients = new EventClients(engine, logger, {
    maxConnections: settings.Events.MaxConnections,
    maxBufferedBytes: settings.Events.MaxBufferedBytes,
  });
  const upgradeHandlers = new Map<string, UpgradeHandler>();
  let webSocketEvents: WebSocketEvents | undefined;
  let server: Server | undefined;
  let address: { port: number; url: string } | undefined;

  const guard = async (request: Request, _response: Response, next: NextFunction) => {
    await gate.check(request);
    next();
  };
  const operationContext: OperationRouteContext = {
    engine,
    maxBodyBytes: settings.MaxRequestBodyBytes,
    lingerMs: settings.LingerTimeout,
    audit,
    isGuarded: (operation) =>
      operation.authorization && operation.authorization.mode !== 'operator'
        ? operation.authorization.mode === 'required'
        : guardsEngineRoutes &&
          (operation.authorization?.mode === 'operator' ||
            operation.path === '/engine' ||
            operation.path.startsWith('/engine/')),
    // A declared `required` policy (or a handler's further one) asks with it; the exposure rule asks the gate.
    guard: (request, operation, resource, policy) =>
      policy !== undefined || operation.authorization?.mode === 'required'
        ? authorizeOperation(request, operation, authorize, logger, resource, policy)
        : gate.check(request, operation.id, resource),
  };
  const ownsBody = (request: Request) =>
    documented.some(
      (route) =>
        route.ownsBodyParsing &&
        route.method === request.method.toLowerCase() &&
        matchesPath(route, request.path),
    );
  const jsonBody = boundedBodyParser(
    utf8JsonBody(settings.MaxRequestBodyBytes, false),
    settings.MaxRequestBodyBytes,
    settings.LingerTimeout,
  );
  const validateBody = (schema: z.ZodType) => (request: Request, _response: Response, next: NextFunction) => {
    request.body = schema.parse(request.body ?? {});
    next();
  };

  /** GET routes served before express (the health routes): exact path → answer. */
  let fastAnswers = new Map<string, FastAnswer>();
  let routesBySpecificity: HostRoute[] = [];
  let templateOf = routeTemplates(routesBySpecificity);

  function rebuildRouter(): void {
    fastAnswers = fastAnswersOf(documented, isGuarded);
    routesBySpecificity = [...documented].sort(bySpecificity);
    templateOf = routeTemplates(routesBySpecificity);
    const next = express.Router();
    for (const route of routesBySpecificity) {
      const handlers: express.RequestHandler[] = [];
      // A change made with the browser session must carry its CSRF token, from the host's own origin.
      if (sessions && isGuarded(route) && route.method !== 'get') {
        const action = route.operationId ?? `${route.method.toUpperCase()} ${route.path}`;
        handlers.push(
          sessions.csrfCheck((request, problem) =>
            audit.record(request, {
              action,
              principal: null,
              resource: null,
              params: { ...(request.params as Record<string, string>) },
              status: problem.status,
              code: problem.code,
            }),
          ) as express.RequestHandler,
        );
      }
      if (isGuarded(route) && !route.guardedByHandler) handlers.push(guard);
      handlers.push(...(route.preHandlers ?? []));
      if (route.requestBody) handlers.push(validateBody(route.requestBody));
      handlers.push((request, response) => route.handler(request, response) as void);
      next[route.method](route.path, ...handlers);
    }
    router = next;
    cachedDocuments.clear();
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((request, response, next) => (ownsBody(request) ? next() : jsonBody(request, response, next)));
  app.use((request, response, next) => router(request, response, next));

  const outer = express();
  outer.disable('x-powered-by');
  outer.use(startFailureGate(engine));
  outer.use(drain.middleware);
  outer.use(app);
  outer.use(
    routeNotFoundHandler((path) =>
      documented.filter((route) => matchesPath(route, path)).map((route) => route.method.toUpperCase()),
    ),
  );
  if (sessions) outer.use(sessions.loginRedirect());
  outer.use(problemErrorHandler(logger));

  function undocumentedRoutes(): UndocumentedRoute[] {
    const stack =
      (
        app as unknown as {
          router?: { stack?: Array<{ route?: { path: unknown; methods: Record<string, boolean> } }> };
        }
      ).router?.stack ?? [];
    return stack.flatMap((layer) =>
      layer.route && typeof layer.route.path === 'string'
        ? Object.keys(layer.route.methods)
            .filter((method) => method !== '_all')
            .map((method) => ({ method, path: layer.route!.path as string }))
        : [],
    );
  }

  /** The route template a request matched (the fast answers' exact paths first), for the HTTP telemetry. */
  const routeTemplate = (method: string, path: string): string | undefined => {
    if (fastAnswers.has(path)) return path;
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    return templateOf(verb, path);
  };

  const telemetryRoutes = {
    routeOf: routeTemplate,
    traced: (path: string) => !fastAnswers.has(path),
  };

  const host: WebHost = {
    engine,
    workerHost,
    app,
    handler: (request, response) =>
      serveWithTelemetry(request, response, telemetryRoutes, () => {
        if (!serveFastAnswer(fastAnswers, request, response, { draining: drain.isDraining, logger }))
          outer(request, response);
      }),
    get server() {
      return server;
    },
    settings,
    transports: [
      'RestApi',
      ...[...transports.builtIn].filter((name) => name !== 'RestApi'),
      ...transports.adapters.map((adapter) => adapter.name),
    ],
    addRoute(route) {
      if (route.requireAuthorization && !authorize) {
        throw new CoreError(
          'HOST_ROUTE_INVALID',
          `${route.method.toUpperCase()} ${route.path} requires authorization but createWebHost got no authorize hook`,
        );
      }
      if (documented.some((existing) => existing.method === route.method && existing.path === route.path)) {
        throw new CoreError(
          'HOST_ROUTE_INVALID',
          `${route.method.toUpperCase()} ${route.path} is already registered`,
        );
      }
      documented.push(route);
      rebuildRouter();
      return host;
    },
    routes: () => [...documented].sort(bySpecificity),
    onUpgrade(path, handler) {
      upgradeHandlers.set(path, handler);
      return host;
    },
    openApiDocument(selection = { majorVersion: 1 }, { engineRoutes = true } = {}) {
      const described = (path: string) => engineRoutes || !isEnginePath(path);
      const undocumented = (selection.documentName === undefined ? undocumentedRoutes() : []).filter(
        (route) => described(route.path),
      );
      const key = `${documented.length}:${undocumented.length}:${selection.majorVersion}:${selection.documentName ?? ''}:${engineRoutes}`;
      let document = cachedDocuments.get(key);
      if (!document) {
        const routes = host
          .routes()
          .filter((route) => isSelectedRoute(route, selection) && described(route.path));
        const documentTitle =
          selection.documentName === undefined
            ? title
            : `${title}: ${selection.documentName} (API v${selection.majorVersion})`;
        document = buildOpenApiDocument({
          title: documentTitle,
          version: engine.manifest().engine.version,
          routes,
          undocumented,
          isGuarded,
        });
        cachedDocuments.set(key, document);
      }
      return document;
    },
    async listen() {
      if (address) return address;
      const port = failsStartOnThrow(
        workerHost,
        () =>
          options.port ?? settings.Port ?? portFromEnvironment(options.environment ?? process.env) ?? 3000,
      );
      const bindAddress = options.bindAddress ?? settings.BindAddress;
      // Unknown configuration keys end the process before a port opens (when a failed start ends it at all).
      if (workerHost.endsOnStartFailure) await workerHost.checkConfiguration();
      const created = createServer(host.handler);
      created.on(
        'upgrade',
        upgradeDispatcher(upgradeHandlers, () => drain.isDraining),
      );
      try {
        await new Promise<void>((resolve, reject) => {
          const fail = (error: Error) => reject(listenError(error, port, bindAddress));
          created.once('error', fail);
          created.listen(port, bindAddress, () => {
            created.off('error', fail);
            resolve();
          });
        });
      } catch (error) {
        // The engine records it (Failed, not restartable); a host that owns the process frees its ports and exits 1.
        await workerHost.recordStartFailure(webHostFailurePhases.listen, error, { restartable: false });
        throw error;
      }
      server = created;
      const bound = created.address() as AddressInfo;
      const shownHost =
        !bindAddress || bindAddress === '0.0.0.0' || bindAddress === '::' ? 'localhost' : bindAddress;
      address = {
        port: bound.port,
        url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${bound.port}`,
      };
      logger.log({
        level: 'info',
        eventId: webHostEventIds.listening,
        category: 'web-host',
        message: `Web host listening on ${address.url} (health: /health/ready, surfaces: /engine, reference: /scalar)`,
        port: bound.port,
        transports: host.transports,
      });
      try {
        await workerHost.start();
      } catch (error) {
        // The worker host logged it; when a failed start ends the process, it has already closed the server and
        // every transport port and reported the failure. Otherwise (the `exitOnStartFailure: false` opt-in, or
        // a host that does not own the process) the health routes show it: liveness 503, restartAvailableAtUtc.
        if (workerHost.endsOnStartFailure) throw error;
      }
      syncOperations();
      return address;
    },
    async close() {
      // The participants close the server and unmount every transport adapter once the engine stopped.
      await workerHost.stop('host closed');
    },
  };

  workerHost.addShutdownParticipant(
    httpShutdownParticipant({
      drain,
      eventClients,
      server: () => server,
      webSocketEvents: () => webSocketEvents,
      drainTimeoutMs: settings.DrainTimeout,
      logger,
    }),
  );
  // Adapters with a server of their own (gRPC) release it after the engine stopped, also after a failed start
  // that ends the process; an adapter that fails to unmount is logged, not fatal.
  workerHost.addShutdownParticipant({
    name: 'transport-adapters',
    drain: async () => undefined,
    async close() {
      for (const { name, adapter } of transports.adapters) {
        try {
          await adapter.unmount?.();
        } catch (error) {
          logger.log({
            level: 'warn',
            eventId: webHostEventIds.transportUnmountFailed,
            category: 'web-host',
            message: `The ${name} transport adapter failed to unmount: ${(error as Error)?.message ?? error}`,
          });
        }
      }
    },
  });

  for (const route of healthRoutes(
    engine,
    settings.Health.ShowDetails,
    createDetailsPolicy(settings.Health.ShowDetails, authorize, logger),
  )) {
    documented.push(route);
  }
  /** The document a caller may see: the `/engine` routes only when they are open or the hook admits it. */
  const documentFor = async (selection: OpenApiSelection, request: IncomingMessage) =>
    host.openApiDocument(selection, {
      engineRoutes: await gate.admits(request),
    });
  const links = (): EngineLink[] =>
    host
      .routes()
      .filter((route) => route.rel)
      .map((route) => ({
        rel: route.rel!,
        href: toOpenApiPath(route.path),
        method: route.method.toUpperCase(),
        templated: route.path.includes(':'),
        description: route.summary,
      }));
  documented.push(
    ...engineSurfaceRoutes(engine, links, () => [
      ...host.transports
        .filter((name) => !transports.adapters.some((entry) => entry.name === name))
        .map((name) => ({ name, operations: [] as string[] })),
      ...transports.adapters.map(({ name, adapter }) => ({
        name,
        operations: [...(adapter.mountedOperations?.() ?? [])],
      })),
    ]),
  );
  for (const view of engine.catalogs()) documented.push(...catalogRoutes(view));
  const mountedOperations = new Set<string>();
  /** Mounts operations not mounted yet: every one at creation, package modules' once the engine loaded them. */
  const syncOperations = () => {
    let added = false;
    for (const operation of engine.operations.list()) {
      if (mountedOperations.has(operation.id)) continue;
      mountedOperations.add(operation.id);
      const method = operation.method.toLowerCase();
      const clash = documented.find(
        (route) => route.method === method && samePattern(route.path, operation.path),
      );
      if (clash) {
        logger.log({
          level: 'error',
          eventId: webHostEventIds.requestFailed,
          category: 'web-host',
          message: `Operation ${operation.id} (${operation.owner ?? 'no owner'}) declares ${operation.method} ${operation.path}, which the host already serves; it is not mounted`,
        });
        continue;
      }
      documented.push(operationRoute(operation, operationContext));
      added = true;
    }
    if (added) rebuildRouter();
  };
  documented.push(
    ...restEndpointRoutes(engine, settings.OpenApi.Enabled ? documentFor : undefined, authorizer),
  );
  if (transports.builtIn.has('ServerSentEvents')) {
    documented.push(
      ...serverSentEventsRoutes(eventClients, settings.Events.HeartbeatInterval, drain.release),
    );
  }
  if (transports.builtIn.has('WebSocket')) {
    webSocketEvents = new WebSocketEvents(eventClients, (request) => gate.refusal(request));
    documented.push(...webSocketEvents.routes());
    upgradeHandlers.set(webSocketEventsRoute, webSocketEvents.handleUpgrade);
  }
  if (settings.OpenApi.Enabled) {
    documented.push({
      method: 'get',
      path: openApiRoute,
      rel: 'openapi',
      summary: 'OpenAPI 3.1 document of every route served',
      tags: ['Reference'],
      responses: { 200: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
      handler: async (request, response) => response.json(await documentFor({ majorVersion: 1 }, request)),
    });
    documented.push(...scalarRoutes(title));
  }
  rebuildRouter();
  syncOperations();
  const httpMount: HttpMount = {
    handle(path, methods, rawHandler, mountOptions = {}) {
      for (const method of methods) {
        host.addRoute({
          method: method.toLowerCase() as HostRoute['method'],
          path,
          summary: mountOptions.summary ?? `${method} ${path}`,
          requireAuthorization: mountOptions.requireAuthorization,
          ownsBodyParsing: true,
          responses: { 200: { description: 'The transport answer', contentType: 'application/json' } },
          handler: (request, response) => rawHandler(request, response),
        });
      }
    },
    onUpgrade(path, upgradeHandler) {
      host.onUpgrade(path, upgradeHandler);
    },
  };
  mountBehaviorStreams(engine, httpMount, {
    serverSentEvents: transports.builtIn.has('ServerSentEvents'),
    webSocket: transports.builtIn.has('WebSocket'),
    logger,
    authorize: authorizer,
  });
  for (const { name, adapter } of transports.adapters) {
    Promise.resolve()
      .then(() =>
        adapter.mount({
          engine,
          http: httpMount,
          authorize: authorizer,
          descriptionsGuarded: guardsEngineRoutes,
        }),
      )
      .catch((error: unknown) =>
        logger.log({
          level: 'error',
          eventId: webHostEventIds.requestFailed,
          category: 'web-host',
          message: `The ${name} transport adapter failed to mount: ${(error as Error)?.message ?? error}`,
        }),
      );
  }
  return host;
}
