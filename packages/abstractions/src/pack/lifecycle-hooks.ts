import type { Engine } from '../engine';
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
  /** Aborted when the engine stops: after every `stopping` hook has finished and the jobs were stopped. */
  readonly signal: AbortSignal;
  /** The runtime state at the time of the call. */
  readonly state: RuntimeState;
  /**
   * True when the hook runs as part of `engine.restart()`: in `starting` and `started`, the start is the second
   * half of a restart; in `stopping`, a start follows at once (a pack with
   * its own server can keep it open, answering "not serving" in between, instead of closing it).
   */
  readonly restarting: boolean;
}

/**
 * Hooks a pack registers with `builder.addLifecycleHooks(...)`, run in registration order:
 * - `build` inside `builder.build()` after every registration (return every problem: the build fails with all
 *   of them);
 * - `attach` once the engine exists, with the engine itself (to read its state later or `subscribe` to its
 *   runtime events);
 * - `starting` as the first step of every start, `restart()` included (`restarting` says which): the state is
 *   `Starting`, before packages are discovered and modules start. A hook that throws fails the start (phase
 *   `pack-starting`), and the failed start runs `stopping`: what a pack opens here follows the engine's run
 *   (a process-wide provider started here is stopped by a failed start, a stop, never left behind);
 * - `started` as the last step of a start, while the state is still `Starting`: after modules, hosted services
 *   and the first dependency checks, before jobs are armed and the state turns `Started`. A hook that throws
 *   fails the start (phase `pack-started`);
 * - `stopping` as the first step of every stop, `restart()` included: the state is `Stopping` (operations are
 *   refused), jobs still run and the signal is not aborted yet. Each hook is awaited; all of them together get
 *   `Engine:Shutdown:StoppingHooksTimeout` (default 10 s), after which the stop goes on. Only then are jobs
 *   stopped, the signal aborted, modules stopped and stores closed. A failed start runs `stopping` too (state
 *   `Starting`), so a pack releases what it opened; a throwing `stopping` is recorded, never fatal.
 */
export interface LifecycleHooks {
  /** The pack's id, for errors and the story. */
  readonly id: string;
  build?(context: BuildHookContext): readonly string[] | void;
  attach?(engine: Engine): void;
  starting?(context: RuntimeHookContext): void | Promise<void>;
  started?(context: RuntimeHookContext): void | Promise<void>;
  stopping?(context: RuntimeHookContext): void | Promise<void>;
}
