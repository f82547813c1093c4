export {
  sharedCallbackShape,
  callbackSection,
  refineSignedCallback,
  defaultMaxEventsPerRequest,
  defaultMaxRequestBodyBytes,
  replayCacheLimit,
  replayRetentionSeconds,
  toleranceSeconds,
} from './callback-options';
export type { SharedCallbackOptions } from './callback-options';
export { callbackErrorCodes } from './callback-errors';
export { mapSendGridEvent, mapMailgunEvent, mapSesEvent, sendGridStatusMapping } from './status-mapping';
export type { MappedStatus } from './status-mapping';
export {
  parseJsonBody,
  assertBodySize,
  assertBatchSize,
  batchItems,
  headerValue,
  isRecord,
} from './raw-body';
export { isSafeToken, observationEvent } from './provider-observation';
export type { ObservationFacts } from './provider-observation';
export {
  claimOnce,
  logProcessed,
  logSignatureRefusal,
  replaySurface,
  signatureRefusalError,
} from './provider-records';
export type {
  ProviderRecordEventIds,
  ProviderRecords,
  ReplayWording,
  SignatureRefusal,
} from './provider-records';
export { ownProperty } from './callback-context';
export {
  deliveryContextNames,
  deliveryContextParts,
  encodedContextPrefix,
  encodeContextValue,
  decodeContextValue,
  encodeDeliveryContext,
  deliveryContextHeaders,
  deliveryContextBody,
  readDeliveryContext,
  deliveryContextTable,
} from './delivery-context-contract';
export type {
  CallbackContext,
  DeliveryContextAlphabet,
  DeliveryContextPart,
  DeliveryContextValues,
} from './delivery-context-contract';
export { ReplayGuard } from './replay-guard';
export type { ReplayEntry } from './replay-guard';
export { callbackResultSchema, callbackEventOutcomes } from './callback-response';
export type { CallbackResult, CallbackEventOutcome, CallbackOutcomeEntry } from './callback-response';
export { reconcileTranslatedEvents } from './callback-pipeline';
export type { TranslatedEvent, ReconcileOptions } from './callback-pipeline';
export { callbackSurface, newCallbackCounters } from './callback-surface';
export type {
  CallbackCounters,
  CallbackSurfaceParts,
  IdempotencySurface,
  ReplaySurface,
} from './callback-surface';
export { defineStatusCallbacks } from './define-status-callbacks';
export type { StatusCallbacksDescriptor, StatusCallbacksFunction } from './define-status-callbacks';
export { registerProviderCallback } from './register-callback';
export type {
  CallbackExtensions,
  CallbackRequest,
  CallbackRuntime,
  ProviderCallbackImplementation,
  ProviderCallbackSpec,
} from './register-callback';
export { signatureTime, timestampWithinTolerance, constantTimeEqual } from './signature-time';
// The fast-check fuzz harness is the subpath export `@corekit/callback-kit/fuzz` (src/fuzz.ts).
