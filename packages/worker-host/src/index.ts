export { createWorkerHost, shutdownSignals } from './create-worker-host';
export type {
  ShutdownParticipant,
  ShutdownSignal,
  WorkerHost,
  WorkerHostOptions,
} from './create-worker-host';
export { isBuildableBuilder, isEngine, resolveEngineSource } from './engine-source';
export type { BuildableEngineBuilder, EngineSource } from './engine-source';
