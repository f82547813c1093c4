import { credentials, loadPackageDefinition, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { fromJSON, loadSync } from '@grpc/proto-loader';
import { parse } from 'protobufjs';

type Unary = (
  request: unknown,
  metadata: Metadata,
  options: { deadline?: number },
  callback: (error: ServiceError | null, response: unknown) => void,
) => void;

/** A real @grpc/grpc-js client of the generated service, loaded from the proto text. */
export function behaviorClient(proto: string, port: number, service = 'corekit.behaviors.Behaviors') {
  const definition = fromJSON(parse(proto, { keepCase: true }).root.toJSON(), {
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
    arrays: true,
  });
  const loaded = loadPackageDefinition(definition) as Record<string, unknown>;
  const Constructor = service.split('.').reduce<any>((node, part) => node[part], loaded);
  const client = new Constructor(`127.0.0.1:${port}`, credentials.createInsecure()) as Client &
    Record<string, Unary>;
  const call = (method: string, request: unknown, deadlineMs?: number) =>
    new Promise<{ response?: any; error?: ServiceError }>((resolve) =>
      client[method](
        request,
        new Metadata(),
        deadlineMs ? { deadline: Date.now() + deadlineMs } : {},
        (error, response) => resolve(error ? { error } : { response }),
      ),
    );
  return { client, call };
}

const healthProto = `syntax = "proto3"; package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse { enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; } ServingStatus status = 1; }
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse); }`;

export function healthClient(port: number) {
  return behaviorClient(healthProto, port, 'grpc.health.v1.Health');
}

export { loadSync };
