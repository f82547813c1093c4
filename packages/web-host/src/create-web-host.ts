import type { Engine, Logger } from '@corekit/abstractions';
import { createWorkerHost, type EngineSource, type WorkerHost } from '@corekit/worker-host';
import { builtInRoutes } from './built-in-routes';
import { EventClients } from './event-clients';
import { engineRoutesGuarded } from './health-exposure';
import { createHostApps } from './host-app';
import { HostAuthorization } from './host-authorization';
import { HostRouteTable } from './host-route-table';
import { httpShutdownParticipant } from './http-shutdown';
import { expressAppRoutes, OpenApiDocuments } from './openapi-documents';
import { OperationMounting } from './operation-mounting';
import { RequestDrain } from './request-drain';
import { mountBehaviorStreams } from './behavior-streams';
import { failsStartOnThrow } from './start-failure-gate';
import {
  hostHttpMount,
  mountTransportAdapters,
  servedTransportNames,
  transportAdaptersParticipant,
  transportListing,
  type ResolvedTransports,
} from './transport-mounting';
import { readTransportNames, resolveTransports } from './transports';
import { composeWebHost, type WebHost } from './web-host';
import {
  webHostConfigurationSchema,
  type WebHostConfiguration,
  type WebHostOptions,
} from './web-host-options';
import { isWorkerHost, portFromEnvironment, webHostArguments } from './web-host-source';
import { WebSocketEvents, webSocketEventsRoute } from './websocket-events';

export type { WebHost } from './web-host';

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
  const workerHost = isWorkerHost(source) ? source : createWorkerHost(source, workerHostOptions(options));
  const { engine, logger, environment, settings, transports, authorization } = configureWebHost(
    workerHost,
    options,
  );

  // The route table and what is derived from it: the request pipeline, the drain gate, the OpenAPI documents.
  const title = options.title ?? 'Core host';
  const table = new HostRouteTable(authorization);
  const drain = new RequestDrain((request) => table.servedWhileDraining(request.path));
  const { app, pipeline } = createHostApps({
    engine,
    table,
    drain,
    sessions: authorization.sessions,
    settings,
    logger,
  });
  const documents = new OpenApiDocuments({
    title,
    version: () => engine.manifest().engine.version,
    routes: () => table.routes(),
    routeCount: () => table.size,
    undocumented: () => expressAppRoutes(app),
    isGuarded: (route) => authorization.isGuarded(route),
  });
  table.onRebuild(() => documents.clear());
  const operations = new OperationMounting(
    engine.operations,
    table,
    operationRouteContext(engine, settings, authorization),
    logger,
  );
  const served = servedTransportNames(transports);
  const host = composeWebHost({
    ...{ workerHost, logger, settings, authorization, table, documents, drain, app, pipeline },
    transports: served,
    port: () =>
      failsStartOnThrow(
        workerHost,
        () => options.port ?? settings.Port ?? portFromEnvironment(environment) ?? 3000,
      ),
    bindAddress: options.bindAddress ?? settings.BindAddress,
    afterStart: () => operations.sync(),
  });

  // Event streams, and the shutdown that drains and closes the HTTP side, then the adapters' own servers.
  const eventClients = new EventClients(engine, logger, {
    maxConnections: settings.Events.MaxConnections,
    maxBufferedBytes: settings.Events.MaxBufferedBytes,
  });
  const webSocketEvents = transports.builtIn.has('WebSocket')
    ? new WebSocketEvents(eventClients, (request) => authorization.refusal(request))
    : undefined;
  workerHost.addShutdownParticipant(
    httpShutdownParticipant({
      ...{ drain, eventClients, logger },
      server: () => host.server,
      webSocketEvents: () => webSocketEvents,
      drainTimeoutMs: settings.DrainTimeout,
    }),
  );
  workerHost.addShutdownParticipant(transportAdaptersParticipant(transports, logger));

  // Routes: the host's own, the operations known now (package modules' follow at start), then the transports.
  table.push(
    ...builtInRoutes({
      ...{ engine, settings, title, authorization, eventClients, webSocketEvents },
      routes: () => table.routes(),
      transports: () => transportListing(served, transports),
      document: async (selection, request) =>
        documents.document(selection, { engineRoutes: await authorization.admitsEngineRoutes(request) }),
      serverSentEvents: transports.builtIn.has('ServerSentEvents'),
      releaseFromDrain: drain.release,
    }),
  );
  if (webSocketEvents) host.onUpgrade(webSocketEventsRoute, webSocketEvents.handleUpgrade);
  table.rebuild();
  operations.sync();
  mountTransports(host, transports, authorization, logger);
  return host;
}

/**
 * The configuration a web host is built on, each step a start failure no restart cures when it throws:
 * `Engine:Web`, `Engine:Transports`, then `Engine:Web:EngineRoutes` against the authorize hook.
 */
function configureWebHost(workerHost: WorkerHost, options: WebHostOptions) {
  const engine = workerHost.engine;
  const logger: Logger = options.logger ?? workerHost.logger;
  const environment = options.environment ?? process.env;
  const settings = failsStartOnThrow(workerHost, () => bindWebHostSettings(engine));
  const transports = failsStartOnThrow(workerHost, () =>
    resolveTransports(engine, readTransportNames(engine.configuration)),
  );
  const authorization = new HostAuthorization(engine, options.authorize, logger, (authorize) =>
    failsStartOnThrow(workerHost, () =>
      engineRoutesGuarded(settings.EngineRoutes, environment, authorize, logger),
    ),
  );
  return { engine, logger, environment, settings, transports, authorization };
}

/** The behavior streams of the built-in transports, then every transport adapter, mounted on the host. */
function mountTransports(
  host: WebHost,
  transports: ResolvedTransports,
  authorization: HostAuthorization,
  logger: Logger,
): void {
  const { engine } = host;
  const http = hostHttpMount(host);
  mountBehaviorStreams(engine, http, {
    serverSentEvents: transports.builtIn.has('ServerSentEvents'),
    webSocket: transports.builtIn.has('WebSocket'),
    logger,
    authorize: authorization.authorizer,
  });
  mountTransportAdapters(
    transports,
    {
      engine,
      http,
      authorize: authorization.authorizer,
      descriptionsGuarded: authorization.guardsEngineRoutes,
    },
    logger,
  );
}

/** The worker host a web host creates when given a builder or an engine: the process is the web host's. */
function workerHostOptions(options: WebHostOptions) {
  const handleSignals = options.handleSignals ?? true;
  return {
    handleSignals,
    exitProcess: options.exitProcess ?? handleSignals,
    exitOnStartFailure: options.exitOnStartFailure ?? true,
    logger: options.logger,
    exit: options.exit,
    reportStartupError: options.reportStartupError,
    environment: options.environment,
  };
}

/** `Engine:Web` after defaults; an invalid value throws (CONFIGURATION_INVALID, naming the key). */
function bindWebHostSettings(engine: Engine): WebHostConfiguration {
  return engine.configuration.bind(
    'Engine:Web',
    webHostConfigurationSchema,
  ) as unknown as WebHostConfiguration;
}

/** How operation routes reach the host: limits from `Engine:Web`, authorization and audit from the host. */
function operationRouteContext(
  engine: Engine,
  settings: WebHostConfiguration,
  authorization: HostAuthorization,
) {
  return {
    engine,
    maxBodyBytes: settings.MaxRequestBodyBytes,
    lingerMs: settings.LingerTimeout,
    audit: authorization.audit,
    isGuarded: (operation: Parameters<HostAuthorization['isOperationGuarded']>[0]) =>
      authorization.isOperationGuarded(operation),
    guard: authorization.guardOperation.bind(authorization),
  };
}
