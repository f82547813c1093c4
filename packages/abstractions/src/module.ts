import type { Logger } from './logging';
import type { ConfigurationReader } from './configuration';
import type { BehaviorDefinition } from './behaviors';
import type { RestDeclaration } from './rest-publication';
import type { OperationDefinition } from './pack/operations';

/** What a module's lifecycle hooks receive. */
export interface ModuleContext {
  readonly moduleId: string;
  readonly configuration: ConfigurationReader;
  readonly logger: Logger;
  /** Aborted when the engine stops or the start is abandoned. */
  readonly signal: AbortSignal;
}

/**
 * A Core module: an id, a version, the capabilities it offers, and optional lifecycle hooks run in
 * registration order on start (initialize, then start) and in reverse order on stop.
 */
export interface ModuleDefinition {
  readonly id: string;
  /** Semantic version reported by the manifest. */
  readonly version: string;
  readonly displayName?: string;
  readonly description?: string;
  /** Capability keys other catalogs may reference (execution graph nodes, for example). */
  readonly capabilities?: readonly string[];
  /** Transport-neutral operations the module offers (`defineBehavior`); ids are unique across the engine. */
  readonly behaviors?: readonly BehaviorDefinition[];
  /**
   * How the module publishes its behaviors over REST: `routeGroup(...)` (explicit DSL), `restProfile(...)`
   * (generated shorthand) and `restGet/restPost/...` (inline helpers). Targets must be the module's own behaviors.
   */
  readonly rest?: readonly RestDeclaration[];
  /**
   * Operations the module serves directly (module routes such as `/api/operations/status`): the same contract
   * packs use. Paths are absolute; a clash with another operation fails the build (code modules) or is
   * refused and recorded (package modules).
   */
  readonly operations?: readonly OperationDefinition<any, any, any, any>[];
  initialize?(context: ModuleContext): void | Promise<void>;
  start?(context: ModuleContext): void | Promise<void>;
  stop?(context: ModuleContext): void | Promise<void>;
}

/** A long-running background service the engine starts after modules and stops before them. */
export interface HostedService {
  readonly id: string;
  start(signal: AbortSignal): void | Promise<void>;
  stop(): void | Promise<void>;
}
