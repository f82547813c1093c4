import { createBehaviorClient, type BehaviorClientOptions } from '../grpc-client';

/** A client of the generated service on the loopback port. */
export function behaviorClient(
  proto: string,
  port: number,
  service?: string,
  options?: BehaviorClientOptions,
) {
  return createBehaviorClient(proto, `127.0.0.1:${port}`, service, options);
}

const healthProto = `syntax = "proto3"; package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse { enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; } ServingStatus status = 1; }
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse); }`;

export function healthClient(port: number, options?: BehaviorClientOptions) {
  return behaviorClient(healthProto, port, 'grpc.health.v1.Health', options);
}
