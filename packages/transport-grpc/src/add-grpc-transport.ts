import {
  CoreError,
  callableRuntimeKey,
  type Authorizer,
  type Engine,
  type EngineBuilder,
  type RegisteredCallable,
  type TransportAdapter,
} from '@corekit/abstractions';
import {
  beginTransportRegistration,
  servedCallables,
  type TransportDescription,
} from '@corekit/transport-kit';
import {
  grpcEventIdNames,
  grpcEventIdRange,
  grpcEventIds,
  grpcOptionsSchema,
  grpcSectionPath,
  type GrpcOptions,
  type GrpcOptionsInput,
} from './grpc-options';
import { GrpcBehaviorServer } from './grpc-server';
import { clientCertificateMode } from './grpc-tls';
import type { ServingStatus } from './health-service';

/** Registration key of `addGrpcTransport` (a second call is refused). */
export const grpcRegistrationKey = '@corekit/transport-grpc';

const grpcTransport: TransportDescription<GrpcOptions> = {
  transport: 'Grpc',
  packageName: grpcRegistrationKey,
  functionName: 'addGrpcTransport',
  section: { path: grpcSectionPath, schema: grpcOptionsSchema },
  calls: {
    name: 'corekit.transport.grpc.calls',
    description: 'gRPC calls by behavior id and outcome (ok or the numeric status code)',
  },
  eventIds: { component: 'Transport: gRPC', ranges: [grpcEventIdRange], names: grpcEventIdNames },
  displayName: 'gRPC transport',
};

/** The gRPC adapter: a transport adapter plus the port it listens on once mounted. */
export interface GrpcTransport extends TransportAdapter {
  /** The bound port (useful with `Port: 0`); undefined before the server listens. */
  port(): number | undefined;
  /** The `.proto` the server serves (what `generateProto` gives for the served behaviors). */
  proto(): string | undefined;
}

/**
 * Registers the gRPC adapter (`Engine:Transports` value `Grpc`): a proto generated from the behaviors
 * (non-streaming ones, those the engine knows when the host mounts the adapter), served by @grpc/grpc-js on
 * its own port (`Engine:Grpc:Port`), plaintext or TLS (`Engine:Grpc:Tls`), with grpc.health.v1 answering
 * SERVING only while the engine is Started and ready (NOT_SERVING during startup, a restart, after
 * `beginShutdown` and while stopping) and server reflection. The server binds when the host mounts the adapter;
 * a bind failure or an unusable TLS file fails the engine start. A restart keeps the server open (NOT_SERVING
 * until the engine has started again); a stop or a failed start closes it, and the next start binds a new one
 * on the same port.
 * Behaviors of package modules loaded at start are not served (they are unknown when the service is built).
 */
export function addGrpcTransport(builder: EngineBuilder, options?: GrpcOptionsInput): GrpcTransport {
  const registration = beginTransportRegistration(builder, grpcTransport, options);
  const { settings, logger, calls, category } = registration;
  let server: GrpcBehaviorServer | undefined;
  let listening: Promise<number> | undefined;
  let closing: Promise<void> = Promise.resolve();
  /** The port the first server bound (`Port: 0` picks one): later servers bind the same one. */
  let boundPort: number | undefined;
  let served: string[] = [];
  let behaviors: readonly RegisteredCallable[] = [];
  let attachedEngine: Engine | undefined;
  /** Set when shutdown (not a restart) begins: NOT_SERVING, and the server closes once the engine stopped. */
  let closeWhenStopped = false;
  let lastStatus: ServingStatus = 'NOT_SERVING';

  const servingStatus = (): ServingStatus =>
    !closeWhenStopped &&
    attachedEngine?.state === 'Started' &&
    attachedEngine.readiness().status !== 'Unhealthy'
      ? 'SERVING'
      : 'NOT_SERVING';
  const statusMayHaveChanged = () => {
    const next = servingStatus();
    if (next === lastStatus) return;
    logger.log({
      level: 'info',
      eventId: grpcEventIds.healthChanged,
      category,
      message: `gRPC health: ${lastStatus} → ${next}`,
      status: next,
    });
    lastStatus = next;
    server?.health.publish();
  };

  /** Builds a server for the engine's behaviors and binds it; `listening` settles with the port or the error. */
  /** The host's authorizer, from the mount (absent on a host without one: guarded behaviors are refused). */
  let hostAuthorizer: Authorizer | undefined;
  /** `Reflection`, or (unset) whether the host leaves its descriptions open; decided at mount. */
  let reflection = settings.Reflection ?? true;
  const startServer = (engine: Engine) => {
    const next = new GrpcBehaviorServer({
      authorize: hostAuthorizer,
      reflection,
      callables: engine.resolve(callableRuntimeKey)!,
      behaviors,
      settings,
      logger,
      calls,
      servingStatus,
    });
    server = next;
    const port = boundPort ?? settings.Port;
    listening = next.listen(port).then(
      (bound) => {
        boundPort = bound;
        logger.log({
          level: 'info',
          eventId: grpcEventIds.listening,
          category,
          message: `gRPC transport listening on ${settings.BindAddress}:${bound} (${settings.Tls ? 'TLS' : 'plaintext'}, ${served.length} rpcs, health${reflection ? ', reflection' : ''})`,
          port: bound,
        });
        return bound;
      },
      (error: Error) => {
        // Forget the server that did not bind: the next start builds a new one (after the files were fixed).
        if (server === next) server = undefined;
        void next.close();
        if (error instanceof CoreError) {
          logger.log({ level: 'error', eventId: grpcEventIds.tlsUnusable, category, message: error.message });
          throw error;
        }
        logger.log({
          level: 'error',
          eventId: grpcEventIds.bindFailed,
          category,
          message: `gRPC transport cannot listen on ${settings.BindAddress}:${port}: ${error.message}`,
        });
        throw new CoreError(
          'GRPC_LISTEN_FAILED',
          `The gRPC transport cannot listen on ${settings.BindAddress}:${port} (Engine:Grpc:Port): ${error.message}`,
        );
      },
    );
    listening.catch(() => undefined);
  };

  const closeServer = async () => {
    const stopping = server;
    server = undefined;
    if (!stopping) return;
    await listening?.catch(() => undefined);
    closing = stopping.close();
    await closing;
    logger.log({
      level: 'info',
      eventId: grpcEventIds.stopped,
      category,
      message: 'gRPC transport stopped',
    });
  };

  const adapter: GrpcTransport = {
    name: 'Grpc',
    mount({ engine, authorize, descriptionsGuarded }) {
      if (attachedEngine) return;
      attachedEngine = engine;
      hostAuthorizer = authorize;
      reflection = settings.Reflection ?? !descriptionsGuarded;
      behaviors = servedCallables(engine.resolve(callableRuntimeKey), settings.Operations)();
      served = behaviors.map((entry) => entry.callable.id);
      engine.subscribe((event) => {
        if (event.type === 'health-changed') statusMayHaveChanged();
        // A failed start closes the server too (the host does not unmount adapters): the next start binds anew.
        if ((closeWhenStopped && engine.state === 'Stopped') || engine.state === 'Failed') void closeServer();
      });
      startServer(engine);
    },
    async unmount() {
      closeWhenStopped = true;
      statusMayHaveChanged();
      await closeServer();
    },
    mountedOperations: () => [...served].sort(),
    port: () => server?.port,
    proto: () => server?.proto,
  };

  builder.addLifecycleHooks({
    id: 'transport-grpc',
    async started() {
      closeWhenStopped = false;
      if (attachedEngine && !server) {
        // The engine starts again after a stop (or a failed bind): a new server on the same port.
        await closing;
        startServer(attachedEngine);
      }
      if (listening) await listening;
      statusMayHaveChanged();
    },
    stopping({ restarting }) {
      // A restart keeps the server open: the engine is not Started until the restart completes, so health
      // answers NOT_SERVING and behavior calls UNAVAILABLE in between, and clients keep their connections.
      if (restarting) return void statusMayHaveChanged();
      // Shutdown begins (readiness turns Unhealthy, requests drain): NOT_SERVING now, and the server keeps
      // answering until the engine has stopped, then closes.
      closeWhenStopped = true;
      statusMayHaveChanged();
      const waitForStop = setInterval(() => {
        const state = attachedEngine?.state;
        if (state === 'Stopped' || state === 'Failed' || !server) {
          clearInterval(waitForStop);
          void closeServer();
        }
      }, 50);
      waitForStop.unref();
    },
  });
  return registration.complete(adapter, () => ({
    mounted: server !== undefined,
    metadata: {
      port: server?.port ?? null,
      service: `${settings.Package}.${settings.Service}`,
      reflection,
      health: lastStatus,
      tls: settings.Tls !== undefined,
      clientCertificate: clientCertificateMode(settings.Tls),
    },
  }));
}
