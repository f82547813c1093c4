import type { Logger } from '@corekit/abstractions';
import type { Clock } from './clock';

/** Options of createEngineBuilder. Everything is optional; the defaults suit a production process. */
export interface EngineBuilderOptions {
  /** Options in code, nested by the spec's keys (`{ Engine: { FailurePolicy: { ... } } }`); they win over every other source. */
  readonly configuration?: Record<string, unknown>;
  /** Directory holding engine.json and engine.<environment>.json. Default: the working directory. */
  readonly contentRoot?: string;
  /** Environment variables to read (`Engine__FailurePolicy__StartupReadinessDelay`). Default: process.env. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Selects engine.<name>.json. Default: NODE_ENV of `environment` (process.env when that is not given). */
  readonly environmentName?: string;
  /** Source of time; tests pass manualClock(). */
  readonly clock?: Clock;
  /** Where structured records go. Default: JSON lines on stdout. */
  readonly logger?: Logger;
  /** The engine instance id (`builder.instanceId`); a new `<host>:<pid>:<random>` by default. */
  readonly instanceId?: string;
}
