import { errorCode, type Logger } from '@corekit/abstractions';
import { governanceEventIds } from './governance-event-ids';

/** What the surfaces say about the freshness of their summaries. */
export interface SummaryFreshness {
  /** `store-on-write`: one process owns the records, every write updates the summary. `shared-store-refresh`: reloaded on an interval. */
  readonly summarySource: 'store-on-write' | 'shared-store-refresh';
  /** The staleness bound of another replica's write, in seconds; null when nothing is shared. */
  readonly summaryMaxStalenessSeconds: number | null;
  /** When the summaries were last reloaded from the shared store (null before the first reload, or not shared). */
  readonly summaryRefreshedAtUtc: string | null;
}

/**
 * Reloads the per-process summaries the technology surfaces read (surfaces are read synchronously, so they
 * cannot query the store) from a shared store provider on an interval: another replica's write is visible
 * on this replica's surfaces within the interval plus one round trip. Each summary keeps this process's own
 * writes at once. Runs only when the store provider is shared (decided at start); a timer of its own rather
 * than an engine job, because a job writes two runtime-story entries per run and a refresh every few seconds
 * would push every real event out of the bounded story. Reloads never overlap; a failed reload is logged
 * (4511, warn) and retried on the next tick.
 */
export class SharedStateRefresher {
  private readonly reloads: Array<() => Promise<void>> = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private shared = false;
  private refreshedAtUtc: string | null = null;

  constructor(
    private readonly intervalSeconds: number,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  /** Adds a reload (the governance records, the delivery registration's queue and observation counts). */
  add(reload: () => Promise<void>): void {
    this.reloads.push(reload);
  }

  /** Starts the interval when the store provider is shared; called from the `started` hook. */
  start(shared: boolean): void {
    this.clearTimer();
    this.shared = shared;
    if (!shared) return;
    this.timer = setInterval(() => void this.refresh(), this.intervalSeconds * 1000);
    this.timer.unref();
  }

  /**
   * Stops the interval and waits for a reload in flight, so no store call follows the engine's stop (a shared
   * provider would open a new pool for it after closing its own).
   */
  async stop(): Promise<void> {
    this.clearTimer();
    await this.running;
  }

  private clearTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One reload of every summary (skipped while one is running); tests and the timer call it. */
  refresh(): Promise<void> {
    this.running ??= this.reloadAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  freshness(): SummaryFreshness {
    return this.shared
      ? {
          summarySource: 'shared-store-refresh',
          summaryMaxStalenessSeconds: this.intervalSeconds,
          summaryRefreshedAtUtc: this.refreshedAtUtc,
        }
      : { summarySource: 'store-on-write', summaryMaxStalenessSeconds: null, summaryRefreshedAtUtc: null };
  }

  private async reloadAll(): Promise<void> {
    try {
      for (const reload of this.reloads) await reload();
      this.refreshedAtUtc = this.now().toISOString();
    } catch (error) {
      // The error code only: a driver message may carry an address.
      this.logger.log({
        level: 'warn',
        eventId: governanceEventIds.stateLoaded,
        category: 'tenant-governance',
        message: `Tenant governance summaries could not be reloaded from the shared store (${errorCode(error)}); retrying on the next interval`,
        code: errorCode(error),
      });
    }
  }
}
