export { createEngineBuilder, CoreEngineBuilder } from './engine-builder';
export type { EngineBuilderOptions } from './engine-builder';
export { CoreEngine, engineVersion } from './engine';
export { supportedPackSpecificationVersions } from './pack/pack-declarations';
export { ConfigurationStore, bindValue } from './configuration-store';
export { manualClock, systemClock } from './clock';
export type { Clock, ManualClock } from './clock';
export { createJsonLogger, createMemoryLogger, RedactingLogger } from './logger';
export {
  failurePolicySchema,
  runtimeStoryOptionsSchema,
  dependencyHealthDefaultsSchema,
  shutdownOptionsSchema,
  startupOptionsSchema,
} from './engine-options';
export type { ShutdownOptions, StartupOptions } from './engine-options';
export {
  meterName,
  activitySourceName,
  counterNames,
  histogramNames,
  engineTracer,
  spanNames,
} from './diagnostics';
export { meterBound } from './meter-binding';
export { tracerBound } from './tracer-binding';
export { EngineMeter } from './pack/engine-meter';
export { EngineTracer } from './pack/engine-tracer';
export { HealthChangeMonitor } from './health-change-monitor';
export { DependencyHealthScheduler } from './dependency-health-scheduler';
export { foldPosture, postureOrder } from './catalogs/cell-materialization';
export * from './packages';
export { engineRecordEventIds, engineRecordEventIdRange } from './engine-record-event-ids';
export { JobScheduler, type JobSchedulerOptions, type JobRunResult } from './jobs/job-scheduler';
export * from './stores';
export * from './presence';
