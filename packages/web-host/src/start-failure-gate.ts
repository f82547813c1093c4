import type { Engine, StartFailureOptions } from '@corekit/abstractions';
import type { WorkerHost } from '@corekit/worker-host';
import type { NextFunction, Request, Response } from 'express';
import { createProblem, sendProblem, webHostProblemCodes } from './problem-details';

/** The phases under which the web host records the start failures it finds itself. */
export const webHostFailurePhases = {
  /** `Engine:Web` (or `Engine:Transports`) refused: the host cannot be built. */
  configuration: 'host-configuration',
  /** The listener could not bind its port or address. */
  listen: 'host-listen',
} as const;

/** True for the routes that still answer after a failed start: `/health*` and `/engine*`. */
export function answersAfterFailedStart(path: string): boolean {
  return (
    path === '/health' || path.startsWith('/health/') || path === '/engine' || path.startsWith('/engine/')
  );
}

/**
 * Middleware: while the engine is Failed, every route but `/health*` (which answer 503 from the engine's state)
 * and `/engine*` (the failure itself: `/engine/status`, `/engine/snapshot`, the runtime story) answers 503 with the
 * `ENGINE_START_FAILED` problem naming the failure; an application route never runs on an engine that did not
 * start. A successful `restart()` opens the gate again.
 */
export function startFailureGate(engine: Engine) {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (engine.state !== 'Failed' || answersAfterFailedStart(request.path)) {
      next();
      return;
    }
    const failure = engine.status().lastFailure;
    const cause = failure ? ` in phase ${failure.phase} (${failure.code})` : '';
    sendProblem(
      request,
      response,
      createProblem(
        503,
        webHostProblemCodes.engineStartFailed,
        `The engine failed to start${cause}; only /health and /engine answer. See /engine/status for the failure.`,
        { lastFailure: failure },
      ),
    );
  };
}

/**
 * Runs a step of building the web host that reads its own configuration; when it throws, the engine records a
 * start failure that no restart cures (`workerHost.recordStartFailure`: Failed at once, then released, reported
 * and exit code 1 when the host owns the process) and the error is rethrown to the caller of createWebHost.
 */
export function failsStartOnThrow<T>(
  workerHost: WorkerHost,
  work: () => T,
  options: StartFailureOptions = { restartable: false },
): T {
  try {
    return work();
  } catch (error) {
    // Records synchronously; what ends the process (release, report, exit) follows on its own.
    void workerHost.recordStartFailure(webHostFailurePhases.configuration, error, options);
    throw error;
  }
}
