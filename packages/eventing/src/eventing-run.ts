/**
 * One engine run as the eventing pack sees it: created by the `started` hook, ended by `stopping`, so an
 * `engine.restart()` starts from a fresh run instead of one that was aborted by the previous stop.
 * - `stopping` turns true the moment the stop begins: no new batch is claimed, no new subscription attempt or
 *   retry starts, and a failure seen from then on gives its message back instead of counting an attempt;
 * - `signal` aborts in-flight executors: when the engine's own signal aborts, or once the in-flight work
 *   settled (so nothing outlives the run).
 */
export class EventingRun {
  private readonly controller = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopRequested = false;

  /** Aborted when in-flight executors must stop (the engine aborted, or the run ended). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True from the start of the stop on: the run takes no new work. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Tracks work of this run (a dispatch pass) so the stop can wait for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }

  /**
   * Ends the run: takes no new work, lets in-flight work finish (each subscription attempt is bounded by its
   * timeout, and none starts after this call), aborting it at once when `engineSignal` aborts, then aborts
   * whatever still holds the run's signal.
   */
  async stop(engineSignal: AbortSignal): Promise<void> {
    this.stopRequested = true;
    const abort = () => this.controller.abort();
    if (engineSignal.aborted) abort();
    else engineSignal.addEventListener('abort', abort, { once: true });
    try {
      await Promise.allSettled([...this.inFlight]);
    } finally {
      engineSignal.removeEventListener('abort', abort);
      abort();
    }
  }
}
