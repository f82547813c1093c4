import type { ServerUnaryCall, ServerWritableStream, sendUnaryData, ServiceDefinition } from '@grpc/grpc-js';
import { loadPackageDefinition, status } from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import protobuf from 'protobufjs';

// protobufjs is CommonJS: its named exports are not visible to ES module imports.
const { parse } = protobuf;

const healthProto = `syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}`;

export type ServingStatus = 'SERVING' | 'NOT_SERVING';

/** The package definition of grpc.health.v1 (also handed to reflection). */
export const healthPackageDefinition = fromJSON(parse(healthProto, { keepCase: true }).root.toJSON(), {
  keepCase: true,
  enums: String,
  defaults: true,
});

/**
 * grpc.health.v1.Health answering from `current()`: the overall status (service "") and the same status for
 * every name in `services`; other names are NOT_FOUND (Check) or SERVICE_UNKNOWN (Watch). Watch streams the
 * status now and at every change until the call ends or `endWatches` is called (at shutdown).
 */
export class HealthService {
  private readonly watchers = new Set<ServerWritableStream<{ service: string }, unknown>>();

  constructor(
    private readonly services: ReadonlySet<string>,
    private readonly current: () => ServingStatus,
  ) {}

  definition(): ServiceDefinition {
    const loaded = loadPackageDefinition(healthPackageDefinition) as unknown as {
      grpc: { health: { v1: { Health: { service: ServiceDefinition } } } };
    };
    return loaded.grpc.health.v1.Health.service;
  }

  private known(service: string): boolean {
    return service === '' || this.services.has(service);
  }

  readonly handlers = {
    Check: (call: ServerUnaryCall<{ service: string }, unknown>, callback: sendUnaryData<unknown>) => {
      if (!this.known(call.request.service))
        return callback({ code: status.NOT_FOUND, details: `Unknown service "${call.request.service}"` });
      callback(null, { status: this.current() });
    },
    Watch: (call: ServerWritableStream<{ service: string }, unknown>) => {
      if (!this.known(call.request.service)) {
        call.write({ status: 'SERVICE_UNKNOWN' });
        return;
      }
      this.watchers.add(call);
      call.write({ status: this.current() });
      call.on('cancelled', () => this.watchers.delete(call));
    },
  };

  /** Sends the status to every watcher (call after it changed). */
  publish(): void {
    for (const call of this.watchers) call.write({ status: this.current() });
  }

  /** Ends every Watch stream (before the server shuts down). */
  endWatches(): void {
    for (const call of this.watchers) call.end();
    this.watchers.clear();
  }
}
