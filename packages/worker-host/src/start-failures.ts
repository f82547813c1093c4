import { engineEventIds, errorCode, type Engine, type StartFailureOptions } from '@corekit/abstractions';
import type { HostLog, HostShutdown } from './host-shutdown';

/**
 * What a host does with a failed start: the engine records it (Failed, `lastFailure`, a story entry), the host
 * logs it, and when the failure ends the process (`endsProcess`) releases what the start opened, ends with exit
 * code 1 and writes the startup report.
 */
export class StartFailures {
  constructor(
    private readonly engine: Engine,
    private readonly log: HostLog,
    /** True when a failed start ends the process (`exitProcess` and `exitOnStartFailure`). */
    readonly endsProcess: boolean,
    private readonly shutdown: HostShutdown,
    private readonly report: (error: unknown) => void,
  ) {}

  /** `engine.recordStartFailure`, logged instead of thrown when the engine is past the point of recording. */
  mark(phase: string, error: unknown, options: StartFailureOptions): void {
    try {
      this.engine.recordStartFailure(phase, error, options);
    } catch (refused) {
      this.log(
        'warn',
        engineEventIds.runtimeStartFailed,
        `The start failure (${phase}) was not recorded: ${(refused as Error)?.message ?? refused}`,
      );
    }
  }

  /** Logs a failed start; when it ends the process: releases what the start opened, ends with 1, reports. */
  async failed(error: unknown): Promise<void> {
    this.log(
      'error',
      engineEventIds.runtimeStartFailed,
      `The engine failed to start: ${(error as Error)?.message ?? error}`,
      {
        errorCode: errorCode(error),
      },
    );
    if (!this.endsProcess) return;
    await this.shutdown.release();
    this.shutdown.finish(1);
    this.report(error);
  }
}
