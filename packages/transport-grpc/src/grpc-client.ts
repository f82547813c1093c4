import {
  credentials,
  loadPackageDefinition,
  Metadata,
  type Client,
  type ChannelCredentials,
  type ServiceError,
} from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import protobuf from 'protobufjs';

// protobufjs is CommonJS: its named exports are not visible to ES module imports.
const { parse } = protobuf;

type Unary = (
  request: unknown,
  metadata: Metadata,
  options: { deadline?: number },
  callback: (error: ServiceError | null, response: unknown) => void,
) => void;

/** The answer of one unary call: a response or the gRPC error. */
export interface BehaviorCallResult {
  readonly response?: any;
  readonly error?: ServiceError;
}

/** A @grpc/grpc-js client of a service described by proto text (the generated one by default). */
export interface BehaviorClient {
  /** The underlying grpc-js client (for streaming methods). */
  readonly client: Client & Record<string, unknown>;
  /** One unary call; `metadata` entries are sent as request metadata (`authorization: Bearer ...`). */
  call(
    method: string,
    request: unknown,
    deadlineMs?: number,
    metadata?: Readonly<Record<string, string>>,
  ): Promise<BehaviorCallResult>;
  close(): void;
}

/** TLS for `createBehaviorClient`: PEM text (strings or buffers), not file paths. */
export interface BehaviorClientTls {
  /** The CA that signed the server certificate. */
  readonly rootCertificates: string | Buffer;
  /** A client certificate (chain), for a server with RequireClientCertificate; needs `privateKey`. */
  readonly certificateChain?: string | Buffer;
  /** The client certificate's private key. */
  readonly privateKey?: string | Buffer;
  /** The name the server certificate must carry when it differs from the address's host. */
  readonly serverName?: string;
}

export interface BehaviorClientOptions {
  /** Connect with TLS (default plaintext). */
  readonly tls?: BehaviorClientTls;
}

function channelCredentials(tls: BehaviorClientTls | undefined): ChannelCredentials {
  if (!tls) return credentials.createInsecure();
  const pem = (value: string | Buffer | undefined) =>
    value === undefined ? null : Buffer.isBuffer(value) ? value : Buffer.from(value);
  if ((tls.certificateChain === undefined) !== (tls.privateKey === undefined)) {
    throw new TypeError('createBehaviorClient: tls.certificateChain and tls.privateKey go together');
  }
  return credentials.createSsl(pem(tls.rootCertificates), pem(tls.privateKey), pem(tls.certificateChain));
}

/**
 * A client for `service` (default `corekit.behaviors.Behaviors`) at `address` (`host:port`), decoding int64
 * as numbers and enums as names, as the server does; plaintext, or TLS with `options.tls`. For tests and tools.
 */
export function createBehaviorClient(
  proto: string,
  address: string,
  service = 'corekit.behaviors.Behaviors',
  options: BehaviorClientOptions = {},
): BehaviorClient {
  const definition = fromJSON(parse(proto, { keepCase: true }).root.toJSON(), {
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
    arrays: true,
  });
  const loaded = loadPackageDefinition(definition) as Record<string, unknown>;
  const Constructor = service
    .split('.')
    .reduce<Record<string, unknown>>(
      (node, part) => node[part] as Record<string, unknown>,
      loaded,
    ) as unknown as new (
    address: string,
    channelCredentials: ChannelCredentials,
    options?: Record<string, string>,
  ) => Client & Record<string, Unary>;
  const serverName = options.tls?.serverName;
  const client = new Constructor(
    address,
    channelCredentials(options.tls),
    serverName ? { 'grpc.ssl_target_name_override': serverName, 'grpc.default_authority': serverName } : {},
  );
  return {
    client,
    call: (method, request, deadlineMs, metadata = {}) =>
      new Promise((resolve) =>
        client[method](
          request,
          Object.entries(metadata).reduce((sent, [name, value]) => {
            sent.set(name, value);
            return sent;
          }, new Metadata()),
          deadlineMs ? { deadline: Date.now() + deadlineMs } : {},
          (error, response) => resolve(error ? { error } : { response }),
        ),
      ),
    close: () => client.close(),
  };
}
