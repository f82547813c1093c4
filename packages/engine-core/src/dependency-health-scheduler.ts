import { performance } from 'node:perf_hooks';
import {
  dependencyCheckResultSchema,
  errorCode,
  observabilityEventIds,
  type DependencyCheckResult,
  type DependencyHealthContributor,
  type DependencyHealthEntry,
  type HealthStatus,
  type Logger,
} from '@corekit/abstractions';
import { isoAt, type Clock } from './clock';

const statuses = new Set<unknown>(['Healthy', 'Degraded', 'Unhealthy']);

/**
 * The common case checked by hand, because it runs after every check: a plain result whose fields have the right
 * types. Anything else goes through the zod schema, which also explains what is wrong.
 */
function isWellFormedResult(value: unknown): value is DependencyCheckResult {
  if (value === null || typeof value !== 'object') return false;
  const { status, description, error, data } = value as Record<string, unknown>;
  if (!statuses.has(status)) return false;
  if (description !== undefined && typeof description !== 'string') return false;
  if (error !== undefined) {
    if (error === null || typeof error !== 'object') return false;
    const { code, message } = error as Record<string, unknown>;
    if (typeof code !== 'string' || typeof message !== 'string') return false;
  }
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) return false;
  return Object.keys(value).every(
    (key) => key === 'status' || key === 'description' || key === 'error' || key === 'data',
  );
}

export interface SchedulerDefaults {
  readonly refreshIntervalSeconds: number;
  readonly timeoutSeconds: number;
  readonly staleAfterIntervals: number;
}

interface Completed {
  readonly result: DependencyCheckResult;
  readonly timedOut: boolean;
  readonly checkedAt: number;
  /** Formatted once when the run completes, not on every read. */
  readonly checkedAtUtc: string;
  readonly durationMs: number;
}

interface Slot {
  readonly contributor: DependencyHealthContributor;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  last: Completed | null;
  /** The contributor's own promise while it has not settled (also after it was abandoned on timeout). */
  pendingCheck: Promise<unknown> | null;
  /** The scheduler's run (check raced against the timeout) while it is in progress. */
  currentRun: Promise<void> | null;
  timer: NodeJS.Timeout | null;
  consecutiveFailures: number;
  publishedStatus: HealthStatus | null;
}

export interface SchedulerHooks {
  /** Redacts registered secrets from a value before it is stored or published. */
  redact<T>(value: T): T;
  onStatusChange(entry: DependencyHealthEntry, previous: HealthStatus | null): void;
  onRun(contributor: DependencyHealthContributor, outcome: 'completed' | 'timed-out' | 'failed'): void;
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
    this.slots = contributors.map((contributor) => ({
      contributor,
      intervalMs: (contributor.refreshIntervalSeconds ?? defaults.refreshIntervalSeconds) * 1000,
      timeoutMs: (contributor.timeoutSeconds ?? defaults.timeoutSeconds) * 1000,
      last: null,
      pendingCheck: null,
      currentRun: null,
      timer: null,
      consecutiveFailures: 0,
      publishedStatus: null,
    }));
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
    const { contributor, timeoutMs } = slot;
    const controller = new AbortController();
    const startedAt = performance.now();
    let timer: NodeJS.Timeout | undefined;

    const check = Promise.resolve().then(() => contributor.check(controller.signal));
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
    let result: DependencyCheckResult;
    let timedOut = false;
    if (outcome.kind === 'timed-out') {
      timedOut = true;
      result = {
        status: 'Unhealthy',
        description: `${contributor.displayName} did not answer within ${timeoutMs / 1000} s (timed out)`,
        error: {
          code: 'DEPENDENCY_TIMEOUT',
          message: `The check timed out after ${timeoutMs / 1000} s; the connection was abandoned`,
        },
      };
      this.logger.log({
        level: 'warn',
        eventId: observabilityEventIds.dependencyCheckTimedOut,
        category: 'dependency-health',
        message: `Dependency ${contributor.id} timed out after ${timeoutMs} ms`,
        dependencyId: contributor.id,
      });
    } else if (outcome.kind === 'failed') {
      const error = outcome.error as Error;
      result = {
        status: 'Unhealthy',
        description: `${contributor.displayName} check failed`,
        error: {
          code: errorCode(error, 'DEPENDENCY_CHECK_FAILED'),
          message: String(error?.message ?? error),
        },
      };
    } else {
      const parsed = isWellFormedResult(outcome.value)
        ? { success: true as const, data: outcome.value }
        : dependencyCheckResultSchema.safeParse(outcome.value);
      result = parsed.success
        ? parsed.data
        : {
            status: 'Unhealthy',
            description: `${contributor.displayName} returned an invalid result`,
            error: {
              code: 'DEPENDENCY_RESULT_INVALID',
              message: parsed.error.issues.map((issue) => issue.message).join('; '),
            },
          };
    }

    const checkedAt = this.clock.now();
    slot.last = {
      result: this.hooks.redact(result),
      timedOut,
      checkedAt,
      checkedAtUtc: isoAt(checkedAt),
      durationMs,
    };
    slot.consecutiveFailures = result.status === 'Healthy' ? 0 : slot.consecutiveFailures + 1;
    this.hooks.onRun(
      contributor,
      timedOut ? 'timed-out' : result.status === 'Unhealthy' ? 'failed' : 'completed',
    );
    this.publishIfChanged(slot);
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
    // Written out field by field (no object spreads): this runs for every dependency on every health read.
    const { contributor, last } = slot;
    if (!last) {
      return {
        id: contributor.id,
        displayName: contributor.displayName,
        kind: contributor.kind,
        required: contributor.required,
        status: 'Unhealthy',
        description: 'not checked yet',
        error: null,
        data: {},
        checkedAtUtc: null,
        durationMs: null,
        timedOut: false,
        stale: false,
        refreshIntervalSeconds: slot.intervalMs / 1000,
        timeoutSeconds: slot.timeoutMs / 1000,
        consecutiveFailures: slot.consecutiveFailures,
      };
    }
    const age = this.clock.now() - last.checkedAt;
    const stale = age > this.defaults.staleAfterIntervals * slot.intervalMs;
    return {
      id: contributor.id,
      displayName: contributor.displayName,
      kind: contributor.kind,
      required: contributor.required,
      status: stale ? 'Unhealthy' : last.result.status,
      description: stale
        ? `last result is stale: checked ${Math.round(age / 1000)} s ago, more than ${this.defaults.staleAfterIntervals} refresh intervals`
        : (last.result.description ?? null),
      error: last.result.error ?? null,
      data: last.result.data ?? {},
      checkedAtUtc: last.checkedAtUtc,
      durationMs: last.durationMs,
      timedOut: last.timedOut,
      stale,
      refreshIntervalSeconds: slot.intervalMs / 1000,
      timeoutSeconds: slot.timeoutMs / 1000,
      consecutiveFailures: slot.consecutiveFailures,
    };
  }
}
