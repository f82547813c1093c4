import {
  Server,
  loadPackageDefinition,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { fromJSON, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import protobuf from 'protobufjs';

// protobufjs is CommonJS: its named exports are not visible to ES module imports.
const { parse } = protobuf;
import {
  type Authorizer,
  type CallableRuntime,
  type Logger,
  type PackCounter,
  type RegisteredBehavior,
  type RegisteredCallable,
} from '@corekit/abstractions';
import { grpcEventIds, type GrpcOptions } from './grpc-options';
import { toGrpcError } from './grpc-status';
import { serverCredentials } from './grpc-tls';
import { HealthService, healthPackageDefinition, type ServingStatus } from './health-service';
import { generateProto } from './proto-generator';
import { fromWire, isWrapped, rpcName, toWire } from './proto-shape';

/** Decoding options: plain numbers for int64, enum names, defaults for scalars without presence. */
const loaderOptions = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  objects: true,
};

/** The generated service, loaded for @grpc/grpc-js. */
export function loadBehaviorService(
  behaviors: readonly (RegisteredCallable | RegisteredBehavior)[],
  settings: GrpcOptions,
): { proto: string; packageDefinition: PackageDefinition; service: ServiceDefinition } {
  const proto = generateProto(behaviors, { packageName: settings.Package, serviceName: settings.Service });
  const packageDefinition = fromJSON(parse(proto, { keepCase: true }).root.toJSON(), loaderOptions);
  const service = packageDefinition[
    `${settings.Package}.${settings.Service}`
  ] as unknown as ServiceDefinition;
  return { proto, packageDefinition, service };
}

/** What the running server needs from the adapter. */
export interface GrpcServerContext {
  /** The engine's callable runtime: the one invoke path (resource, authorization, validation, span). */
  readonly callables: CallableRuntime;
  /** The callables served as rpcs: every non-streaming behavior and the operations `Operations` lists. */
  readonly behaviors: readonly RegisteredCallable[];
  readonly settings: GrpcOptions;
  readonly logger: Logger;
  readonly calls: PackCounter;
  readonly servingStatus: () => ServingStatus;
  /** Serve grpc.reflection (the `Reflection` setting, or the host's description exposure when unset). */
  readonly reflection: boolean;
  /** The host's authorizer: asked with the call's metadata as headers for behaviors that require authorization. */
  readonly authorize?: Authorizer;
}

/**
 * The adapter's gRPC server: the generated behavior service, grpc.health.v1 and (optionally) reflection,
 * bound to `Engine:Grpc:Port`. Every call gets an AbortSignal aborted when the client cancels or its
 * deadline passes. Plaintext, or TLS (optionally requiring client certificates) with `Engine:Grpc:Tls`.
 */
export class GrpcBehaviorServer {
  readonly server: Server;
  readonly health: HealthService;
  readonly proto: string;
  private boundPort: number | undefined;

  constructor(private readonly context: GrpcServerContext) {
    const { settings, behaviors } = context;
    this.server = new Server({ 'grpc.max_receive_message_length': settings.MaxReceiveMessageBytes });
    const loaded = loadBehaviorService(behaviors, settings);
    this.proto = loaded.proto;
    const serviceName = `${settings.Package}.${settings.Service}`;
    this.health = new HealthService(new Set([serviceName]), context.servingStatus);
    if (behaviors.length > 0) this.server.addService(loaded.service, this.handlers());
    this.server.addService(this.health.definition(), this.health.handlers);
    if (context.reflection) {
      const all = { ...loaded.packageDefinition, ...healthPackageDefinition };
      new ReflectionService(all).addToServer(this.server);
    }
  }

  get port(): number | undefined {
    return this.boundPort;
  }

  private handlers(): Record<
    string,
    (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void
  > {
    const { callables, logger, calls } = this.context;
    return Object.fromEntries(
      this.context.behaviors.map(({ callable: behavior }) => [
        rpcName(behavior.id),
        (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
          const aborted = new AbortController();
          call.on('cancelled', () => aborted.abort());
          const request = call.request as Record<string, unknown>;
          const input = fromWire(behavior.input, isWrapped(behavior.input) ? request.value : request);
          const headers = Object.fromEntries(
            Object.entries(call.metadata.getMap()).map(([name, value]) => [name, String(value)]),
          );
          callables
            .invoke(behavior.id, input ?? {}, {
              transport: 'grpc',
              authorizer: this.context.authorize,
              request: { method: 'POST', path: call.getPath(), headers },
              signal: aborted.signal,
            })
            .then((result) => {
              calls.add(1, { behavior: behavior.id, outcome: 'ok' });
              const wire = toWire(behavior.output, result);
              callback(null, isWrapped(behavior.output) ? { value: wire } : wire);
            })
            .catch((error: unknown) => {
              const grpcError = toGrpcError(error, (unexpected) =>
                logger.log({
                  level: 'error',
                  eventId: grpcEventIds.callFailed,
                  category: 'transport-grpc',
                  message: `gRPC call ${rpcName(behavior.id)} (behavior ${behavior.id}) failed: ${unexpected instanceof Error ? unexpected.message : String(unexpected)}`,
                  behaviorId: behavior.id,
                }),
              );
              calls.add(1, { behavior: behavior.id, outcome: String(grpcError.code) });
              callback(grpcError);
            });
        },
      ]),
    );
  }

  /**
   * Binds `port` (default `Engine:Grpc:Port`) with the configured credentials (TLS files are read now);
   * rejects with the CoreError of an unusable TLS file or with the bind error.
   */
  listen(port = this.context.settings.Port): Promise<number> {
    const { settings } = this.context;
    return new Promise((resolve, reject) => {
      this.server.bindAsync(`${settings.BindAddress}:${port}`, serverCredentials(settings), (error, port) => {
        if (error) return reject(error);
        this.boundPort = port;
        resolve(port);
      });
    });
  }

  /** Ends health watches, waits up to ShutdownTimeoutMs for in-flight calls, then cancels the rest. */
  async close(): Promise<void> {
    this.health.endWatches();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, this.context.settings.ShutdownTimeoutMs);
      timer.unref();
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export { loadPackageDefinition };
