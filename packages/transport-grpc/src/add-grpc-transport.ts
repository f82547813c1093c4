import {
  CoreError,
  behaviorRuntimeKey,
  type Engine,
  type EngineBuilder,
  type TransportAdapter,
} from '@corekit/abstractions';
import {
  beginTransportRegistration,
  servedBehaviors,
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
import type { ServingStatus } from './health-service';

/** Registration key of `addGrpcTransport` (a second call is refused). */
export const grpcRegistrationKey = '@corekit/transport-grpc';

const grpcTransport: TransportDescription<GrpcOptions> = {
  transport: 'Grpc',
  packageName: grpcRegistrationKey,
  functionName: 'addGrpcTransport',
  duplicateCode: 'GRPC_ALREADY_REGISTERED',
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
 * its own port (`Engine:Grpc:Port`), with grpc.health.v1 answering SERVING only while the engine is Started
 * and ready (NOT_SERVING during startup, after `beginShutdown` and while stopping) and server reflection.
 * The server binds when the host mounts the adapter; a bind failure fails the engine start. Behaviors of
 * package modules loaded at start are not served (they are unknown when the service is built).
 */
export function addGrpcTransport(builder: EngineBuilder, options?: GrpcOptionsInput): GrpcTransport {
  const registration = beginTransportRegistration(builder, grpcTransport, options);
  const { settings, logger, calls, category } = registration;
  let server: GrpcBehaviorServer | undefined;
  let listening: Promise<number> | undefined;
  let served: string[] = [];
  let attachedEngine: Engine | undefined;
  let stopping = false;
  let lastStatus: ServingStatus = 'NOT_SERVING';

  const servingStatus = (): ServingStatus =>
    !stopping && attachedEngine?.state === 'Started' && attachedEngine.readiness().status !== 'Unhealthy'
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

  const adapter: GrpcTransport = {
    name: 'Grpc',
    mount({ engine }) {
      if (server) return;
      attachedEngine = engine;
      const runtime = engine.resolve(behaviorRuntimeKey);
      const behaviors = servedBehaviors(runtime)();
      served = behaviors.map((entry) => entry.behavior.id);
      server = new GrpcBehaviorServer({
        runtime: runtime!,
        behaviors,
        settings,
        logger,
        calls,
        servingStatus,
      });
      engine.subscribe((event) => {
        if (event.type === 'health-changed') statusMayHaveChanged();
        if (stopping && (engine.state === 'Stopped' || engine.state === 'Failed')) void adapter.unmount!();
      });
      listening = server.listen().then(
        (port) => {
          logger.log({
            level: 'info',
            eventId: grpcEventIds.listening,
            category,
            message: `gRPC transport listening on ${settings.BindAddress}:${port} (${served.length} rpcs, health${settings.Reflection ? ', reflection' : ''})`,
            port,
          });
          return port;
        },
        (error: Error) => {
          logger.log({
            level: 'error',
            eventId: grpcEventIds.bindFailed,
            category,
            message: `gRPC transport cannot listen on ${settings.BindAddress}:${settings.Port}: ${error.message}`,
          });
          throw new CoreError(
            'GRPC_LISTEN_FAILED',
            `The gRPC transport cannot listen on ${settings.BindAddress}:${settings.Port} (Engine:Grpc:Port): ${error.message}`,
          );
        },
      );
      listening.catch(() => undefined);
    },
    async unmount() {
      stopping = true;
      statusMayHaveChanged();
      const closing = server;
      server = undefined;
      if (!closing) return;
      await listening?.catch(() => undefined);
      await closing.close();
      logger.log({
        level: 'info',
        eventId: grpcEventIds.stopped,
        category,
        message: 'gRPC transport stopped',
      });
    },
    mountedOperations: () => [...served].sort(),
    port: () => server?.port,
    proto: () => server?.proto,
  };

  builder.addLifecycleHooks({
    id: 'transport-grpc',
    async started() {
      stopping = false;
      if (listening) await listening;
      statusMayHaveChanged();
    },
    stopping() {
      // Runs when shutdown begins (readiness turns Unhealthy, requests drain): NOT_SERVING now, and the server
      // keeps answering until the engine has stopped, then closes.
      stopping = true;
      statusMayHaveChanged();
      const waitForStop = setInterval(() => {
        const state = attachedEngine?.state;
        if (state === 'Stopped' || state === 'Failed' || !server) {
          clearInterval(waitForStop);
          void adapter.unmount!();
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
      reflection: settings.Reflection,
      health: lastStatus,
    },
  }));
}
