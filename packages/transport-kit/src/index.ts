export { beginTransportRegistration } from './transport-registration';
export type {
  TransportDescription,
  TransportRegistration,
  TransportSurfaceState,
} from './transport-registration';
export { isStreamingBehavior, servedBehaviors, servedMethods } from './served-behaviors';
export {
  asRegisteredCallable,
  isStreamingCallable,
  operationSelected,
  servedCallableIds,
  servedCallables,
  servedOperationsSchema,
} from './served-callables';
export { readBoundedBody, readBoundedBytes } from './read-bounded-body';
export { jsonBodyRefusal } from './json-content-type';
export { endpointPathSchema, maxBodyBytesSchema } from './endpoint-options';
export { camelCase, defOf, isInteger, pascalCase, unwrapSchema } from './zod-walk';
export type { ZodDef } from './zod-walk';
