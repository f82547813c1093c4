import { CoreError, errorCode } from '@corekit/abstractions';
import { settlesWithin } from './settles-within';

/** The error code of a start that outlived `Engine:Startup:Timeout`. */
const startTimeoutCode = 'ENGINE_START_TIMEOUT';

/** True for the error a start that outlived `Engine:Startup:Timeout` fails with. */
export function isStartTimeout(error: unknown): boolean {
  return error instanceof CoreError && error.code === startTimeoutCode;
}

/**
 * Whether a new start may cure a failure: not a configuration error (the configuration is read once; only a new
 * process with corrected configuration cures it), nor a CoreError that says `details.restartable: false`.
 */
export function isRestartable(error: unknown): boolean {
  if (error instanceof CoreError && error.details.restartable === false) return false;
  return !/^CONFIGURATION_/.test(errorCode(error, ''));
}

/** Where a start is: the phase and module in progress; abandoned once the startup timeout ran out. */
export class StartProgress {
  phase = 'pack-starting';
  moduleId: string | null = null;
  private abandoned = false;

  /** Names the next step; refuses it (throws) once the start was abandoned, so nothing starts after Failed. */
  enter(phase: string, moduleId: string | null = null): void {
    if (this.abandoned) throw new CoreError(startTimeoutCode, 'the start was abandoned');
    this.phase = phase;
    this.moduleId = moduleId;
  }

  abandon(): void {
    this.abandoned = true;
  }
}

/**
 * Awaits the start steps, at most `boundMs` (`Engine:Startup:Timeout`; 0: no bound). When it runs out: the steps
 * are abandoned (the next one refuses to run), `abort` is called (the engine signal), and ENGINE_START_TIMEOUT names
 * the phase and module that were running; the caller then fails the start as for any other error.
 */
export async function boundedStart(
  steps: Promise<void>,
  progress: StartProgress,
  boundMs: number,
  abort: () => void,
): Promise<void> {
  if (boundMs <= 0) return steps;
  // A step that settles after the bound ran out is ignored: the start has already failed.
  steps.catch(() => undefined);
  if (await settlesWithin(steps, boundMs)) return steps;
  progress.abandon();
  abort();
  const { phase, moduleId } = progress;
  throw new CoreError(
    startTimeoutCode,
    `The runtime did not start within Engine:Startup:Timeout (${boundMs} ms): phase ${phase}${moduleId ? ` (module ${moduleId})` : ''} was still running`,
    { phase, moduleId, timeoutMs: boundMs },
  );
}
