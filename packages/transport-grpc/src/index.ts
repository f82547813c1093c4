export { addGrpcTransport, grpcRegistrationKey } from './add-grpc-transport';
export type { GrpcTransport } from './add-grpc-transport';
export { generateProto, defaultProtoNames } from './proto-generator';
export type { ProtoNames } from './proto-generator';
export { grpcStatusCodes } from './grpc-status';
export { grpcEventIds, grpcOptionsSchema, grpcSectionPath } from './grpc-options';
export type { GrpcOptions, GrpcOptionsInput } from './grpc-options';
export { loadBehaviorService } from './grpc-server';
