import type { ExtensionResolver, LifecycleHooks, RuntimeState } from '@corekit/abstractions';
import type { ShutdownOptions } from '../engine-options';
import type { LifecycleRecords } from './lifecycle-records';
import { settlesWithin } from './settles-within';

export interface PackHookParts {
  readonly hooks: readonly LifecycleHooks[];
  readonly extensions: ExtensionResolver;
  readonly records: LifecycleRecords;
  /** `Engine:Shutdown`: StoppingHooksTimeout bounds the stopping hooks. */
  readonly shutdown: ShutdownOptions;
  /** The state the hooks are told. */
  readonly state: () => RuntimeState;
}

/** The packs' `starting`, `started` and `stopping` hooks, in registration order. */
export class PackHooks {
  constructor(private readonly parts: PackHookParts) {}

  /**
   * Runs one kind of hook for every pack that has it. `rethrow`: a failure ends the run and is thrown (it
   * fails the start); otherwise it is recorded and the next pack's hook runs. `onHook` is told each pack's
   * id before its hook runs.
   */
  async run(
    which: 'starting' | 'started' | 'stopping',
    signal: AbortSignal,
    options: {
      readonly rethrow: boolean;
      readonly restarting: boolean;
      readonly onHook?: (id: string) => void;
    },
  ): Promise<void> {
    const { extensions, records } = this.parts;
    const context = {
      signal,
      state: this.parts.state(),
      restarting: options.restarting,
      resolve: extensions.resolve.bind(extensions),
    };
    for (const hooks of this.parts.hooks) {
      if (!hooks[which]) continue;
      options.onHook?.(hooks.id);
      try {
        await hooks[which]?.(context);
      } catch (error) {
        if (options.rethrow) throw error;
        records.stopError('pack', hooks.id, error);
      }
    }
  }

  /** The stopping hooks, bounded as a whole by StoppingHooksTimeout; a hook that overruns is recorded. */
  async stopping(signal: AbortSignal, restarting: boolean): Promise<void> {
    if (!this.parts.hooks.some((hooks) => hooks.stopping)) return;
    const budget = this.parts.shutdown.StoppingHooksTimeout;
    let running: string | null = null;
    const hooks = this.run('stopping', signal, {
      rethrow: false,
      restarting,
      onHook: (id) => (running = id),
    });
    if (await settlesWithin(hooks, budget)) return;
    this.parts.records.stopError(
      'pack',
      running ?? 'stopping-hooks',
      new Error(
        `the stopping hook did not finish within Engine:Shutdown:StoppingHooksTimeout (${budget} ms); the stop goes on`,
      ),
    );
  }
}
