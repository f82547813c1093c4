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
  call(method: string, request: unknown, deadlineMs?: number): Promise<BehaviorCallResult>;
  close(): void;
}

/**
 * A plaintext client for `service` (default `corekit.behaviors.Behaviors`) at `address` (`host:port`),
 * decoding int64 as numbers and enums as names, as the server does. For tests and tools; it has no TLS.
 */
export function createBehaviorClient(
  proto: string,
  address: string,
  service = 'corekit.behaviors.Behaviors',
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
  ) => Client & Record<string, Unary>;
  const client = new Constructor(address, credentials.createInsecure());
  return {
    client,
    call: (method, request, deadlineMs) =>
      new Promise((resolve) =>
        client[method](
          request,
          new Metadata(),
          deadlineMs ? { deadline: Date.now() + deadlineMs } : {},
          (error, response) => resolve(error ? { error } : { response }),
        ),
      ),
    close: () => client.close(),
  };
}
