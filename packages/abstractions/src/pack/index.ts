export { defineExtensionKey } from './extension-key';
export type { ExtensionKey } from './extension-key';
export type { ExtensionResolver } from './extension-resolver';
export { errorKinds, errorKindStatus, OperationError, isOperationError } from './error-kinds';
export type { ErrorKind } from './error-kinds';
export { identifierPattern, identifierSchema, isIdentifier } from './identifiers';
export { defineOperation, operationResponse, isOperationResponse, operationErrorCodes } from './operations';
export type {
  OperationMethod,
  OperationAuthorization,
  BehaviorAuthorization,
  OperationPrincipal,
  OperationAuthorizationRequirement,
  OperationAuthorizeFunction,
  OperationInput,
  OperationContext,
  OperationResponse,
  OperationDefinition,
  OperationInvocation,
  OperationOutcome,
  OperationRegistry,
} from './operations';
export {
  allTenants,
  authorizeBehaviorCall,
  authorizeCall,
  behaviorAuthorizationCodes,
} from './authorization';
export type {
  AuthorizationRequest,
  AuthorizationResource,
  AuthorizationDecision,
  Authorizer,
  AuthorizedCall,
  CallAuthorizationCodes,
} from './authorization';
export {
  storeErrorCodes,
  defaultStoreMaxEntries,
  maxStoreKeyLength,
  assertValidKey,
  assertValidStoreName,
  assertPutOptions,
  assertListOptions,
  resolveStoreMaxEntries,
  admitJsonText,
} from './stores';
export type {
  StoredRecord,
  PutOptions,
  PutResult,
  ListOptions,
  KeyedStore,
  StoreOptions,
  StoreProvider,
  StoreProviderTraits,
  StoreChangeFeedTraits,
  StoreClock,
} from './stores';
export {
  legacyStoreSchemaVersion,
  storeSchemaVersionField,
  storeSchemaErrorCodes,
  resolveStoreSchema,
  storedSchemaVersion,
  encodeStoredValue,
  decodeStoredValue,
  schemaTooNewError,
  layoutTooNewError,
  layoutRefusal,
  versionedStore,
  scanStoreSchema,
} from './store-schema';
export type { StoreMigration, StoreSchema, StoreSchemaScan } from './store-schema';
export { durabilityOrNone, storePostureOf } from './store-posture';
export type { StoreDurability, StoreScope, StorePosture } from './store-posture';
export {
  SharedStoreProvider,
  systemStoreClock,
  storeTimeOf,
  storeExpiryOf,
  admitPut,
  assertDeleteArguments,
  recordFromJson,
  storeFullError,
  storeUnavailableError,
} from './shared-stores';
export type { StoreServer } from './shared-stores';
export type { JobRunContext, JobTrigger, JobDefinition, JobRunOutcome, JobState, JobHandle } from './jobs';
export type {
  StoryEntryInput,
  RuntimeStoryWriter,
  PackRuntimeEventInput,
  RuntimeEventPublisher,
  MetricAttributes,
  PackCounter,
  PackHistogram,
  PackMeter,
  HistogramAdvice,
  RegistrationWarning,
  EventIdCatalogEntry,
} from './runtime-writers';
export { registrationErrorCodes } from './registration-claim';
export type { RegistrationClaim } from './registration-claim';
export { packDiagnostics } from './pack-diagnostics';
export type { PackDiagnostics } from './pack-diagnostics';
export type { BuildHookContext, RuntimeHookContext, LifecycleHooks } from './lifecycle-hooks';
export { transportAdapterKey } from './transports';
export type { RawHttpHandler, HttpMount, TransportMountContext, TransportAdapter } from './transports';
export { StoreLeases, leaseFor, leaseIsLive, keepLeaseRenewed, LeaseLostError } from './store-leases';
export type {
  WorkLease,
  LeaseRecord,
  LeaseAcquisition,
  KeptLease,
  LeaseLossReason,
  LeaseRenewal,
  LeaseRenewalOptions,
} from './store-leases';
export { StoreMirror, sharedStateFreshness } from './store-mirror';
export type {
  StoreMirrorOptions,
  StoreMirrorFreshness,
  StorePropagation,
  SharedStateFreshnessMetadata,
} from './store-mirror';
export { storeChangeFeedVersion, defaultFullReadIntervalMs } from './store-change-feed';
export type {
  StoreChange,
  StoreChangeListener,
  StoreChangeFeedState,
  StoreChangeSubscription,
  WatchableStore,
} from './store-change-feed';
export { errorTypeOf } from './pack-tracer';
export type {
  PackSpanKind,
  SpanAttributeValue,
  TraceCarrier,
  PackSpanOptions,
  PackSpan,
  PackTracer,
  PackTelemetry,
} from './pack-tracer';
export {
  DatabaseClientTelemetry,
  databaseDurationBuckets,
  databaseTargetOfUrl,
  sqlOperationOf,
} from './database-client-telemetry';
export type { DatabaseClientTarget, DatabaseOperation } from './database-client-telemetry';
export { messagingDurationBuckets } from './messaging-conventions';
export { packSpecificationErrorCodes } from './pack-specification';
export type { PackDeclaration, PackSpecificationVersion } from './pack-specification';
export {
  browserSessionsKey,
  browserSessionProblemCodes,
  operatorAuditKey,
  operatorAuditEntrySchema,
  operatorAuditOutcomes,
  requestOrigin,
} from './browser-sessions';
export type {
  BrowserSessionAuthority,
  BrowserSessionPrincipal,
  ResolvedBrowserSession,
  OperatorAuditEntry,
  OperatorAuditOutcome,
  OperatorAuditSink,
  RequestOrigin,
} from './browser-sessions';
