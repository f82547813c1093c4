export { createWorkerHost, shutdownSignals } from './create-worker-host';
export type {
  ShutdownParticipant,
  ShutdownSignal,
  WorkerHost,
  WorkerHostOptions,
} from './create-worker-host';
export { isBuildableBuilder, isEngine, resolveEngineSource } from './engine-source';
export type { BuildableEngineBuilder, EngineSource } from './engine-source';
export {
  debugVariable,
  formatStartupError,
  isDebugEnabled,
  reportStartupFailure,
  runStartup,
} from './startup-error-report';
export type { StartupFailureOptions, StartupReportOptions } from './startup-error-report';
