export { addData, dataRegistrationKey } from './add-data';
export { cdcExecutionBindingsKey } from '@corekit/abstractions';
export type { DataRegistration, DataRuntimeHooks } from './add-data';
export {
  capturePumpOptionsSchema,
  changeStreamPumpOptionsSchema,
  cdcExecutionRuntimeOptionsSchema,
  dataRuntimeOptionsSchema,
} from './data-options';
export type { CdcExecutionRuntimeOptions, DataRuntimeOptions, DataRuntimeOptionsInput } from './data-options';
export {
  captureGapSchema,
  captureRestarts,
  cdcCaptureRuntimeObservationSchema,
  cdcCaptureRuntimeStateSchema,
  cdcExecutionRuntimeSchema,
  coordinationIssues,
  reporterCoordinationSchema,
  reporterStates,
} from './data-model';
export type {
  CaptureGap,
  CdcCaptureRuntimeObservation,
  CdcCaptureRuntimeState,
  CdcExecutionRuntime,
  ReporterCoordination,
} from './data-model';
export { dataErrorCodes } from './data-operations';
export { captureGapErrorCodes } from './capture-gap-operations';
export { dataEventIds } from './data-event-ids';
export type { ExecutionBinding } from './execution-binding';
export { CdcProviderError, cdcPollingProvidersKey } from './polling-provider';
export type {
  CaptureRestart,
  CdcPollingProvider,
  ProviderFailureKind,
  StagedBatch,
} from './polling-provider';
export {
  cdcOutboxTableStatement,
  PostgresPollingProvider,
  quoteQualified,
} from './postgres-polling-provider';
export { MongoChangeStreamProvider } from './mongodb-change-stream-provider';
export type { PumpPassResult } from './capture-pump';
export {
  captureFlowGraphId,
  captureFlowSteps,
  capturePumpId,
  changeStreamFlowGraphId,
  changeStreamFlowSteps,
  changeStreamPumpId,
} from './shipped-runtimes';
