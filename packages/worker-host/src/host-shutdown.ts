import { engineEventIds, errorCode, type Engine } from '@corekit/abstractions';
import type { ShutdownParticipants } from './shutdown-participants';

/** How the host's parts write a log record (category `worker-host`). */
export type HostLog = (
  level: 'info' | 'warn' | 'error',
  eventId: number,
  message: string,
  fields?: Record<string, unknown>,
) => void;

/**
 * The end of a host: the graceful stop (once, whoever asks), the release after a failed start, and the
 * `stopped` promise with the exit code. `onFinished` listeners run as the host ends (the signal handlers are
 * removed there); `keepProcessAlive` holds the event loop until then.
 */
export class HostShutdown {
  /** Resolves with the exit code once the host has stopped (never rejects). */
  readonly stopped: Promise<number>;
  private resolveStopped!: (code: number) => void;
  private stopping: Promise<number> | undefined;
  private readonly forceDrain = new AbortController();
  private readonly finishedListeners: Array<() => void> = [];
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly participants: ShutdownParticipants,
    private readonly log: HostLog,
  ) {
    this.stopped = new Promise<number>((resolve) => (this.resolveStopped = resolve));
  }

  /** True once a stop began. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** Ends the drain now (a second signal): participants cut what is left. */
  cutDrain(): void {
    this.forceDrain.abort();
  }

  onFinished(listener: () => void): void {
    this.finishedListeners.push(listener);
  }

  /** Holds the event loop until the host ends, even when nothing else does. */
  keepProcessAlive(): void {
    this.keepAlive ??= setInterval(() => undefined, 1 << 30);
  }

  /**
   * Graceful shutdown, once: readiness Unhealthy and the packs' stopping hooks (`engine.beginShutdown()`), every
   * participant refuses then drains, `engine.stop()`, every participant closes. Resolves with the exit code: 1
   * when the engine had failed to start or failed to stop.
   */
  stop(reason = 'stop requested'): Promise<number> {
    this.stopping ??= this.stopOnce(reason);
    return this.stopping;
  }

  /** After a failed start: the engine stops (it closes the stores), then every participant closes. */
  async release(): Promise<void> {
    try {
      await this.engine.stop();
    } catch (error) {
      this.log(
        'error',
        engineEventIds.runtimeStopped,
        `The engine failed to stop: ${(error as Error)?.message ?? error}`,
      );
    }
    await this.participants.closeAll();
  }

  /** Ends the host with `code`: the finished listeners run, then `stopped` resolves. */
  finish(code: number): void {
    for (const listener of this.finishedListeners) listener();
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.resolveStopped(code);
  }

  private async stopOnce(reason: string): Promise<number> {
    // A host whose engine failed to start did not do its work: the stop that ends it reports failure.
    let code = this.engine.state === 'Failed' ? 1 : 0;
    // Stopping at once, no new work anywhere, then the packs' stopping hooks (awaited, bounded by
    // Engine:Shutdown:StoppingHooksTimeout).
    const hooks = this.engine.beginShutdown();
    this.participants.refuseAll();
    await hooks;
    await this.participants.drainAll(this.forceDrain.signal);
    try {
      await this.engine.stop();
    } catch (error) {
      code = 1;
      this.log(
        'error',
        engineEventIds.runtimeStopped,
        `The engine failed to stop: ${(error as Error)?.message ?? error}`,
        {
          errorCode: errorCode(error),
        },
      );
    }
    await this.participants.closeAll();
    this.log('info', engineEventIds.runtimeStopped, `Host stopped (${reason}), exit code ${code}`, {
      reason,
      exitCode: code,
    });
    this.finish(code);
    return code;
  }
}
