import { performance } from 'node:perf_hooks';
import { SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import {
  observabilityEventIds,
  type DependencyCheckResult,
  type DependencyHealthContributor,
  type DependencyHealthEntry,
  type HealthStatus,
  type Logger,
} from '@corekit/abstractions';
import { isoAt, type Clock } from './clock';
import {
  answeredResult,
  failedResult,
  timedOutResult,
  type TargetedContributor,
} from './dependency-check-results';
import { createSlot, slotEntry, type Slot } from './dependency-health-slot';
import { engineTracer, spanNames } from './diagnostics';

export interface SchedulerDefaults {
  readonly refreshIntervalSeconds: number;
  readonly timeoutSeconds: number;
  /**
   * A floor, in refresh intervals, under the staleness threshold: a result is stale once it is older than the
   * longer of this many intervals and `interval + timeout + schedulingAllowanceMs` (see staleAfterMs).
   */
  readonly staleAfterIntervals: number;
}

export interface SchedulerHooks {
  /** Redacts registered secrets from a value before it is stored or published. */
  redact<T>(value: T): T;
  onStatusChange(entry: DependencyHealthEntry, previous: HealthStatus | null): void;
  /** After every run; `durationMs` is the run's duration (up to the timeout for a timed-out run). */
  onRun(
    contributor: DependencyHealthContributor,
    outcome: 'completed' | 'timed-out' | 'failed',
    durationMs: number,
  ): void;
  /** After every run, once its status change (if any) was published: the entry as requests now read it. */
  onChecked?(entry: DependencyHealthEntry): void;
}

/**
 * Runs dependency checks in the background: once when started, then every refresh interval, never two runs
 * of one contributor at once. The timeout is enforced here (the signal is aborted and the run is reported as
 * timed out at the deadline, even if the check ignores its signal); while an abandoned check is still pending
 * the contributor is not started again. Reads only return cached results. Timers never keep the process alive.
 */
export class DependencyHealthScheduler {
  private readonly slots: Slot[];
  private running = false;

  constructor(
    contributors: readonly DependencyHealthContributor[],
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly defaults: SchedulerDefaults,
    private readonly hooks: SchedulerHooks,
  ) {
    this.slots = contributors.map((contributor) => {
      const intervalMs = (contributor.refreshIntervalSeconds ?? defaults.refreshIntervalSeconds) * 1000;
      const timeoutMs = (contributor.timeoutSeconds ?? defaults.timeoutSeconds) * 1000;
      return createSlot(contributor, intervalMs, timeoutMs, defaults.staleAfterIntervals);
    });
  }

  get size(): number {
    return this.slots.length;
  }

  /** Runs every contributor once, then keeps refreshing each on its interval until stop(). */
  async start(): Promise<void> {
    this.running = true;
    await this.refreshAll();
    for (const slot of this.slots) this.schedule(slot);
  }

  stop(): void {
    this.running = false;
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
    }
  }

  /** Runs every contributor now (joining a run already in progress); resolves when all have settled. */
  async refreshAll(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.run(slot)));
  }

  entries(): DependencyHealthEntry[] {
    return this.slots.map((slot) => this.entryOf(slot));
  }

  private schedule(slot: Slot): void {
    if (!this.running) return;
    slot.timer = setTimeout(() => {
      slot.timer = null;
      // A tick is also where staleness is noticed when nobody reads health (a run skipped while pending).
      this.entryOf(slot);
      void this.run(slot).finally(() => this.schedule(slot));
    }, slot.intervalMs);
    slot.timer.unref();
  }

  private run(slot: Slot): Promise<void> {
    if (slot.currentRun) return slot.currentRun;
    if (slot.pendingCheck) {
      this.logger.log({
        level: 'warn',
        eventId: observabilityEventIds.dependencyCheckSkippedWhilePending,
        category: 'dependency-health',
        message: `Dependency ${slot.contributor.id}: the previous check is still pending after its timeout; not starting another`,
        dependencyId: slot.contributor.id,
      });
      return Promise.resolve();
    }
    slot.currentRun = this.execute(slot).finally(() => {
      slot.currentRun = null;
    });
    return slot.currentRun;
  }

  private async execute(slot: Slot): Promise<void> {
    const { contributor } = slot;
    const span = engineTracer().startSpan(spanNames.dependencyCheck, {
      attributes: {
        'corekit.dependency.id': contributor.id,
        'corekit.dependency.kind': contributor.kind,
        'corekit.dependency.required': contributor.required,
      },
    });
    try {
      await this.executeIn(slot, span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error) });
      throw error;
    } finally {
      span.end();
    }
  }

  private async executeIn(slot: Slot, span: Span): Promise<void> {
    const { contributor, timeoutMs } = slot;
    const controller = new AbortController();
    const startedAt = performance.now();
    let timer: NodeJS.Timeout | undefined;

    // The check runs inside the span's context, so spans its client library records become children.
    const spanContext = trace.setSpan(context.active(), span);
    const check = Promise.resolve().then(() =>
      context.with(spanContext, () => contributor.check(controller.signal)),
    );
    slot.pendingCheck = check;
    check.then(
      () => void (slot.pendingCheck = slot.pendingCheck === check ? null : slot.pendingCheck),
      () => void (slot.pendingCheck = slot.pendingCheck === check ? null : slot.pendingCheck),
    );

    const deadline = new Promise<'timed-out'>((resolve) => {
      timer = setTimeout(() => resolve('timed-out'), timeoutMs);
      timer.unref();
    });

    let outcome:
      { kind: 'completed'; value: unknown } | { kind: 'failed'; error: unknown } | { kind: 'timed-out' };
    try {
      const raced = await Promise.race([
        check.then(
          (value) => ({ kind: 'completed' as const, value }),
          (error: unknown) => ({ kind: 'failed' as const, error }),
        ),
        deadline.then(() => ({ kind: 'timed-out' as const })),
      ]);
      outcome = raced;
    } finally {
      clearTimeout(timer);
    }
    if (outcome.kind === 'timed-out') controller.abort(new Error(`timed out after ${timeoutMs} ms`));

    const durationMs = Math.round((performance.now() - startedAt) * 100) / 100;
    const timedOut = outcome.kind === 'timed-out';
    let result: DependencyCheckResult;
    if (outcome.kind === 'timed-out') {
      result = timedOutResult(contributor, timeoutMs, this.targetOf(slot));
      this.logger.log({
        level: 'warn',
        eventId: observabilityEventIds.dependencyCheckTimedOut,
        category: 'dependency-health',
        message: `Dependency ${contributor.id} timed out after ${timeoutMs} ms`,
        dependencyId: contributor.id,
      });
    } else {
      const built =
        outcome.kind === 'failed'
          ? { result: failedResult(contributor, outcome.error), failed: true }
          : answeredResult(contributor, outcome.value);
      result = built.result;
      if (built.failed) this.logCheckFailed(slot, result);
    }

    const checkedAt = this.clock.now();
    slot.last = {
      result: this.hooks.redact(result),
      timedOut,
      checkedAt,
      checkedAtUtc: isoAt(checkedAt),
      durationMs,
    };
    slot.staleReported = false;
    slot.consecutiveFailures = result.status === 'Healthy' ? 0 : slot.consecutiveFailures + 1;
    const runOutcome = timedOut ? 'timed-out' : result.status === 'Unhealthy' ? 'failed' : 'completed';
    span.setAttributes({
      'corekit.dependency.status': result.status,
      'corekit.dependency.outcome': runOutcome,
      'corekit.dependency.timed_out': timedOut,
    });
    if (result.status === 'Unhealthy') {
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.error?.code ?? 'Unhealthy' });
    }
    this.hooks.onRun(contributor, runOutcome, durationMs);
    this.publishIfChanged(slot);
    this.hooks.onChecked?.(this.entryOf(slot));
  }

  /** The declared target, else the one the last result carried (so a timeout keeps `data.target`). */
  private targetOf(slot: Slot): unknown {
    const declared = (slot.contributor as TargetedContributor).target;
    if (declared !== undefined) return declared;
    return slot.last?.result.data?.target;
  }

  /** 3002: the check threw or returned something that is not a result (an Unhealthy answer is not a failure). */
  private logCheckFailed(slot: Slot, result: DependencyCheckResult): void {
    this.logger.log({
      level: 'warn',
      eventId: observabilityEventIds.dependencyCheckFailed,
      category: 'dependency-health',
      message: `Dependency ${slot.contributor.id} check failed: ${result.error?.code}: ${result.error?.message}`,
      dependencyId: slot.contributor.id,
      errorCode: result.error?.code ?? null,
    });
  }

  /** 3004, once per stale result; the status change it causes is published after the read that saw it. */
  private reportStale(slot: Slot, ageMs: number): void {
    if (slot.staleReported) return;
    slot.staleReported = true;
    this.logger.log({
      level: 'warn',
      eventId: observabilityEventIds.dependencyResultStale,
      category: 'dependency-health',
      message: `Dependency ${slot.contributor.id}: no check completed for ${Math.round(ageMs / 1000)} s (stale after ${slot.staleAfterMs / 1000} s); reporting it Unhealthy`,
      dependencyId: slot.contributor.id,
      ageMs,
      staleAfterMs: slot.staleAfterMs,
    });
    queueMicrotask(() => this.publishIfChanged(slot));
  }

  private publishIfChanged(slot: Slot): void {
    const entry = this.entryOf(slot);
    const previous = slot.publishedStatus;
    if (previous === entry.status) return;
    slot.publishedStatus = entry.status;
    const ids = slot.contributor.eventIds;
    this.logger.log({
      level: entry.status === 'Healthy' ? 'info' : 'warn',
      eventId: ids
        ? entry.status === 'Healthy'
          ? ids.healthy
          : ids.unhealthy
        : observabilityEventIds.dependencyHealthChanged,
      category: `dependency-health.${slot.contributor.kind}`,
      message: `Dependency ${entry.id} (${entry.kind}) is ${entry.status}${previous ? ` (was ${previous})` : ''}${entry.description ? `: ${entry.description}` : ''}`,
      dependencyId: entry.id,
      status: entry.status,
      previousStatus: previous,
      errorCode: entry.error?.code ?? null,
    });
    this.hooks.onStatusChange(entry, previous);
  }

  private entryOf(slot: Slot): DependencyHealthEntry {
    const now = this.clock.now();
    const entry = slotEntry(slot, now);
    if (entry.stale) this.reportStale(slot, now - slot.last!.checkedAt);
    return entry;
  }
}
