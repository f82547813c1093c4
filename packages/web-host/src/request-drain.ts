import type { NextFunction, Request, Response } from 'express';
import { createProblem, sendProblem, webHostProblemCodes } from './problem-details';

/**
 * Tracks in-flight requests and, once draining, lets only the routes that must stay observable through a
 * shutdown (the health routes) through: every other new request answers 503 HOST_SHUTTING_DOWN, and every
 * answer carries `Connection: close`.
 */
export class RequestDrain {
  private readonly inFlight = new Set<Response>();
  private waiters: Array<() => void> = [];
  private draining = false;

  constructor(private readonly servedWhileDraining: (request: Request) => boolean) {}

  get isDraining(): boolean {
    return this.draining;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (this.draining) {
      response.setHeader('Connection', 'close');
      if (this.servedWhileDraining(request)) {
        next();
        return;
      }
      response.setHeader('Retry-After', '5');
      sendProblem(
        request,
        response,
        createProblem(
          503,
          webHostProblemCodes.shuttingDown,
          'The host is shutting down and takes no new requests',
        ),
      );
      return;
    }
    this.inFlight.add(response);
    response.on('close', () => this.release(response));
    next();
  };

  /** Stops counting a long-lived response (an event stream) as in-flight work. */
  readonly release = (response: Response): void => {
    if (!this.inFlight.delete(response)) return;
    if (this.inFlight.size === 0) {
      for (const wake of this.waiters.splice(0)) wake();
    }
  };

  /** Enters the draining mode: from now on only the routes served while draining answer; in-flight work goes on. */
  refuse(): void {
    this.draining = true;
  }

  /** Enters the draining mode; resolves once no tracked request is in flight, or when `signal` aborts. */
  drain(signal: AbortSignal): Promise<'drained' | 'cut'> {
    this.draining = true;
    if (this.inFlight.size === 0) return Promise.resolve('drained');
    return new Promise((resolve) => {
      const onAbort = () => resolve('cut');
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(() => {
        signal.removeEventListener('abort', onAbort);
        resolve('drained');
      });
    });
  }
}
