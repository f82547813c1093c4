/**
 * Per-capture retry delays after consecutive failed passes: the first failure is retried on the next pass,
 * then after `initialMs`, doubling up to `maxMs`; a success forgets the capture. Held by the pump instance
 * (a process that restarts tries once at once, which is what an operator restarting it wants).
 */
export class FailureBackoff {
  private readonly failures = new Map<string, { count: number; notBeforeMs: number }>();

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {}

  /** Whether the capture may be tried at `nowMs`. */
  ready(captureId: string, nowMs: number): boolean {
    const entry = this.failures.get(captureId);
    return !entry || nowMs >= entry.notBeforeMs;
  }

  /** Notes a failure at `nowMs`; answers the delay before the next try (0 for the first failure). */
  failed(captureId: string, nowMs: number): number {
    const count = (this.failures.get(captureId)?.count ?? 0) + 1;
    const delay = count === 1 ? 0 : Math.min(this.maxMs, this.initialMs * 2 ** (count - 2));
    this.failures.set(captureId, { count, notBeforeMs: nowMs + delay });
    return delay;
  }

  succeeded(captureId: string): void {
    this.failures.delete(captureId);
  }
}
