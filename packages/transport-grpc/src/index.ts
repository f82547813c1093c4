export { addGrpcTransport, grpcRegistrationKey } from './add-grpc-transport';
export type { GrpcTransport } from './add-grpc-transport';
export { generateProto, defaultProtoNames } from './proto-generator';
export type { ProtoNames } from './proto-generator';
export { grpcStatusCodes } from './grpc-status';
export { grpcEventIds, grpcOptionsSchema, grpcSectionPath, grpcTlsOptionsSchema } from './grpc-options';
export type { GrpcOptions, GrpcOptionsInput, GrpcTlsOptions } from './grpc-options';
export { loadBehaviorService } from './grpc-server';
export { createBehaviorClient } from './grpc-client';
export type {
  BehaviorClient,
  BehaviorCallResult,
  BehaviorClientOptions,
  BehaviorClientTls,
} from './grpc-client';
