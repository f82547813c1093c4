export * from './health';
export type { DependencyHealthContributor } from './dependency-health';
export type { LogLevel, LogRecord, Logger } from './logging';
export { CoreError, errorCode } from './errors';
export { secretString, isSecretSchema, isPlaceholder } from './secrets';
export { eventIdRanges, engineEventIds, observabilityEventIds, probeEventIds } from './event-ids';
export type { EventIdRange } from './event-ids';
export type { ModuleContext, ModuleDefinition, HostedService } from './module';
export type { ConfigurationReader } from './configuration';
export type {
  CatalogDefinition,
  CatalogFilterView,
  CatalogEntryAction,
  CatalogNarrowing,
  CatalogProblem,
  CatalogResolutionContext,
  CatalogView,
  OperatorViewColumn,
  OperatorViewDefinition,
  OperatorViewForm,
  OperatorViewFormField,
  OperatorViewTenantAuthorization,
} from './catalogs';
export * from './descriptors';
export type { EngineBuilder } from './engine-builder';
export type {
  Engine,
  RuntimeStoryEntry,
  StartFailureOptions,
  RuntimeStoryDocument,
  ModuleLifecycle,
  ExecutionLifecycle,
  ManifestDocument,
  DiagnosticsDocument,
  DiagnosticsInstrument,
  StatusDocument,
  PackageRecord,
  TechnologySurface,
  RuntimeEvent,
} from './engine';
export {
  healthSummarySchema,
  statusDocumentSchema,
  dependenciesDocumentSchema,
  eventIdRangeSchema,
  diagnosticsDocumentSchema,
  packageRecordSchema,
  packagesDocumentSchema,
  policyDocumentSchema,
  runtimeStoryEntrySchema,
  moduleLifecycleSchema,
  executionLifecycleSchema,
  runtimeStoryDocumentSchema,
  manifestDocumentSchema,
  technologySurfaceSchema,
  technologySurfacesDocumentSchema,
  snapshotDocumentSchema,
  engineLinkSchema,
  engineIndexDocumentSchema,
  runtimeEventSchema,
  problemDetailsSchema,
} from './documents';
export type { HealthSummary, ProblemDetails } from './documents';
export * from './cell-descriptors';
export { defineBehavior, BehaviorError, behaviorErrorCodes, behaviorRuntimeKey } from './behaviors';
export { callableErrorCodes, callableRuntimeKey } from './callables';
export type {
  CallableAuthorization,
  CallableDefinition,
  CallableInvocation,
  CallableRuntime,
  RegisteredCallable,
} from './callables';
export type {
  BehaviorContext,
  BehaviorDefinition,
  BehaviorErrorKind,
  BehaviorInvocation,
  BehaviorRuntime,
  RegisteredBehavior,
} from './behaviors';
export {
  restAuthoringStyles,
  restMethods,
  multiplePublishedCandidatesAnswers,
  restShorthandProfiles,
  restResourceActions,
  routeGroup,
  endpoint,
  restResource,
  restProfile,
  restGet,
  restPost,
  restPut,
  restPatch,
  restDelete,
  restPublicationKey,
} from './rest-publication';
export type {
  RestAuthoringStyle,
  RestMethod,
  MultiplePublishedCandidatesAnswer,
  RestAuthoringPolicyDeclaration,
  RestEndpointOptions,
  RestPublicationOptions,
  RestRouteGroupOptions,
  RestEndpointDeclaration,
  RestRouteGroupDeclaration,
  RestInlineRouteDeclaration,
  RestShorthandProfile,
  RestResourceAction,
  RestProfileShorthandOptions,
  RestProfileShorthandDeclaration,
  RestDeclaration,
  PublishedRestEndpoint,
  RestPublicationRuntime,
} from './rest-publication';
export * from './rest-endpoint-descriptors';
export * from './pack';
export { parseDuration, formatDuration, durationSchema } from './duration';
export { cellMaterializationKey } from './cell-materialization';
export type { CellMaterializationReporter } from './cell-materialization';
export { redactText, redactValue, secretsInConnectionString, stripUrlCredentials } from './redaction';
export { behaviorStreamMarker, streamingOutput, streamItemSchema } from './behavior-streams';
export { cdcExecutionBindingsKey } from './cdc-execution-bindings';
export type { CdcExecutionBindings, ExecutionBinding } from './cdc-execution-bindings';
export * from './instance-descriptors';
export * from './service-identity';
