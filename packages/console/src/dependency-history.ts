import {
  CoreError,
  storeErrorCodes,
  type DependencyHealthEntry,
  type HealthStatus,
  type KeyedStore,
} from '@corekit/abstractions';

/** How one completed check ended, as the console labels it: three failure kinds stay distinct. */
export type CheckOutcome = 'healthy' | 'degraded' | 'failed' | 'timed-out';

/** One completed check in the history. */
export interface HistorySample {
  readonly checkedAtUtc: string;
  readonly status: HealthStatus;
  readonly outcome: CheckOutcome;
  readonly durationMs: number | null;
}

/** One stored record: the checks of one dependency within one bucket. */
export interface HistoryBucket {
  readonly dependencyId: string;
  readonly bucketStartUtc: string;
  readonly samples: readonly HistorySample[];
}

export interface DependencyHistoryOptions {
  readonly retentionMs: number;
  readonly bucketMs: number;
  readonly maxSamplesPerBucket: number;
  /** Called when the store was full and the oldest bucket had to go. */
  readonly onBucketDropped?: (key: string) => void;
  readonly now?: () => number;
}

/** The outcome label of a published entry. */
export function outcomeOf(entry: Pick<DependencyHealthEntry, 'status' | 'timedOut'>): CheckOutcome {
  if (entry.timedOut) return 'timed-out';
  if (entry.status === 'Unhealthy') return 'failed';
  return entry.status === 'Degraded' ? 'degraded' : 'healthy';
}

const attempts = 5;

/**
 * Dependency history on the engine's store (`builder.openStore`): one record per dependency and bucket,
 * written compare-and-set (replicas sharing a store never lose each other's samples) and given a TTL of the
 * retention, so the store never holds more than the configured window. On a durable provider (File,
 * PostgreSQL, Redis) the history survives a restart.
 */
export class DependencyHistory {
  private readonly now: () => number;

  constructor(
    private readonly store: KeyedStore<HistoryBucket>,
    private readonly options: DependencyHistoryOptions,
  ) {
    this.now = options.now ?? (() => Date.now());
  }

  private keyOf(dependencyId: string, bucketStart: number): string {
    return `${dependencyId}/${String(bucketStart).padStart(15, '0')}`;
  }

  /** Appends one completed check (entries never checked are ignored). */
  async record(entry: DependencyHealthEntry): Promise<void> {
    if (entry.checkedAtUtc === null) return;
    const checkedAt = Date.parse(entry.checkedAtUtc);
    const bucketStart = Math.floor(checkedAt / this.options.bucketMs) * this.options.bucketMs;
    const ttlMs = Math.max(1, bucketStart + this.options.bucketMs + this.options.retentionMs - this.now());
    const key = this.keyOf(entry.id, bucketStart);
    const sample: HistorySample = {
      checkedAtUtc: entry.checkedAtUtc,
      status: entry.status,
      outcome: outcomeOf(entry),
      durationMs: entry.durationMs,
    };
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const current = await this.store.get(key);
      const samples = current?.value.samples ?? [];
      if (samples.some((existing) => existing.checkedAtUtc === sample.checkedAtUtc)) return;
      if (samples.length >= this.options.maxSamplesPerBucket) return;
      const value: HistoryBucket = {
        dependencyId: entry.id,
        bucketStartUtc: new Date(bucketStart).toISOString(),
        samples: [...samples, sample],
      };
      try {
        const result = await this.store.put(key, value, { expectedVersion: current?.version ?? 0, ttlMs });
        if (result.written) return;
      } catch (error) {
        if (!(error instanceof CoreError) || error.code !== storeErrorCodes.full) throw error;
        await this.dropOldest(entry.id);
      }
    }
  }

  private async dropOldest(dependencyId: string): Promise<void> {
    const [oldest] = await this.store.list({ prefix: `${dependencyId}/`, limit: 1 });
    const victim = oldest ?? (await this.store.list({ limit: 1 }))[0];
    if (!victim) return;
    if (await this.store.delete(victim.key)) this.options.onBucketDropped?.(victim.key);
  }

  /** The latest `perDependency` samples of every dependency checked within `windowMs`, oldest first each. */
  async recent(windowMs: number, perDependency: number): Promise<Record<string, HistorySample[]>> {
    const since = this.now() - Math.min(windowMs, this.options.retentionMs);
    const firstBucket = Math.floor(since / this.options.bucketMs) * this.options.bucketMs;
    const grouped: Record<string, HistorySample[]> = {};
    for (const record of await this.store.list()) {
      if (Date.parse(record.value.bucketStartUtc) < firstBucket) continue;
      const samples = (grouped[record.value.dependencyId] ??= []);
      for (const sample of record.value.samples) {
        if (Date.parse(sample.checkedAtUtc) >= since) samples.push(sample);
      }
    }
    for (const [id, samples] of Object.entries(grouped)) {
      samples.sort((a, b) => Date.parse(a.checkedAtUtc) - Date.parse(b.checkedAtUtc));
      grouped[id] = samples.slice(-perDependency);
    }
    return grouped;
  }

  /** Every sample of one dependency checked within the last `windowMs`, oldest first. */
  async read(dependencyId: string, windowMs: number): Promise<HistorySample[]> {
    const since = this.now() - Math.min(windowMs, this.options.retentionMs);
    const firstBucket = Math.floor(since / this.options.bucketMs) * this.options.bucketMs;
    const records = await this.store.list({ prefix: `${dependencyId}/` });
    return records
      .filter((record) => Number(record.key.slice(dependencyId.length + 1)) >= firstBucket)
      .flatMap((record) => record.value.samples)
      .filter((sample) => Date.parse(sample.checkedAtUtc) >= since)
      .sort((a, b) => Date.parse(a.checkedAtUtc) - Date.parse(b.checkedAtUtc));
  }
}

/** Availability and latency over a set of samples. */
export interface HistorySummary {
  readonly checks: number;
  /** Checks answered Healthy or Degraded (the health routes answer 200 for both). */
  readonly available: number;
  /** Percentage of available checks, two decimals; null without checks. */
  readonly uptimePercent: number | null;
  readonly averageDurationMs: number | null;
  readonly p95DurationMs: number | null;
  readonly outcomes: Readonly<Record<CheckOutcome, number>>;
}

export function summarize(samples: readonly HistorySample[]): HistorySummary {
  const outcomes: Record<CheckOutcome, number> = { healthy: 0, degraded: 0, failed: 0, 'timed-out': 0 };
  for (const sample of samples) outcomes[sample.outcome] += 1;
  const available = outcomes.healthy + outcomes.degraded;
  const durations = samples
    .map((sample) => sample.durationMs)
    .filter((value): value is number => value !== null)
    .sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    checks: samples.length,
    available,
    uptimePercent: samples.length === 0 ? null : round((available / samples.length) * 100),
    averageDurationMs:
      durations.length === 0
        ? null
        : round(durations.reduce((sum, value) => sum + value, 0) / durations.length),
    p95DurationMs:
      durations.length === 0
        ? null
        : durations[Math.min(durations.length - 1, Math.ceil(durations.length * 0.95) - 1)],
    outcomes,
  };
}
