import type { RuntimeState } from '../health';
import type { CatalogResolutionContext } from '../catalogs';
import type { ModuleDefinition } from '../module';
import type { ExtensionResolver } from './extension-resolver';

/** What a build hook sees: the modules and the contributed catalog entries. */
export interface BuildHookContext extends CatalogResolutionContext {
  readonly modules: readonly ModuleDefinition[];
}

/** What the started and stopping hooks see. */
export interface RuntimeHookContext extends ExtensionResolver {
  /** Aborted when the engine stops. */
  readonly signal: AbortSignal;
  /** The runtime state at the time of the call. */
  readonly state: RuntimeState;
  /**
   * True when the hook runs as part of `engine.restart()`: in `stopping`, a start follows at once (a pack with
   * its own server can keep it open, answering "not serving" in between, instead of closing it); in `started`,
   * the start is the second half of a restart.
   */
  readonly restarting: boolean;
}

/**
 * Hooks a pack registers with `builder.addLifecycleHooks(...)`. `build` runs inside `builder.build()` after
 * every registration (return every problem: the build fails with all of them); `attach` once the engine
 * exists (to read its state later); `started` after the engine has started (before readiness can turn
 * Healthy); `stopping` when shutdown begins, before jobs and modules stop.
 */
export interface LifecycleHooks {
  /** The pack's id, for errors and the story. */
  readonly id: string;
  build?(context: BuildHookContext): readonly string[] | void;
  attach?(engine: { readonly state: RuntimeState }): void;
  started?(context: RuntimeHookContext): void | Promise<void>;
  stopping?(context: RuntimeHookContext): void | Promise<void>;
}
