import type { KeyedStore } from '@corekit/abstractions';
import type { EventSubscriptionDeclaration, Owned, SubscriptionExecutor } from './eventing-declarations';
import type { EventMessage } from './eventing-model';
import type { EventingOptions } from './eventing-options';
import { EventingRun } from './eventing-run';

/**
 * `interrupted`: the engine stopped before the subscription completed (no attempt started, or the running
 * one was aborted by the stop). It is not a failure: the outbox lane gives the message back for the next start.
 */
export type SubscriptionOutcome = 'succeeded' | 'failed' | 'skipped' | 'interrupted';

/** What one subscription did with one message. */
export interface SubscriptionRunResult {
  readonly subscriptionId: string;
  readonly outcome: SubscriptionOutcome;
  readonly attempts: number;
  readonly error: string | null;
}

/** Live counters of one subscription, fed back into the readiness catalog. */
export interface SubscriptionRuntimeRecord {
  executionCount: number;
  succeededCount: number;
  failedCount: number;
  skippedCount: number;
  interruptedCount: number;
  retryScheduledCount: number;
  lastAttempt: number;
  lastOutcome: SubscriptionOutcome | null;
  lastError: string | null;
  publicationMetadata: Record<string, string | number | boolean | null>;
}

/** One completed execution in the idempotency ledger (process-local; records expire after the retention). */
export interface CompletedExecution {
  readonly completedAtUtc: string;
}

class AttemptTimeout extends Error {}

/**
 * Runs the in-process subscriptions of a message: each matching executor independently (a failing or slow
 * one never blocks another), each attempt bounded by the timeout, failed attempts retried up to the
 * configured count with the configured delay, completed executions remembered when idempotency is on.
 */
export class SubscriptionRunner {
  readonly records = new Map<string, SubscriptionRuntimeRecord>();
  /** The engine run executions belong to; replaced by `bind` on every start. */
  private current = new EventingRun();

  constructor(
    private readonly options: EventingOptions,
    private readonly executors: ReadonlyMap<string, SubscriptionExecutor>,
    private readonly ledger: KeyedStore<CompletedExecution>,
  ) {}

  /** Executions from now on belong to `run`: its stop ends their retries and aborts their signals. */
  bind(run: EventingRun): void {
    this.current = run;
  }

  record(subscriptionId: string): SubscriptionRuntimeRecord {
    let record = this.records.get(subscriptionId);
    if (!record) {
      record = {
        executionCount: 0,
        succeededCount: 0,
        failedCount: 0,
        skippedCount: 0,
        interruptedCount: 0,
        retryScheduledCount: 0,
        lastAttempt: 0,
        lastOutcome: null,
        lastError: null,
        publicationMetadata: {},
      };
      this.records.set(subscriptionId, record);
    }
    return record;
  }

  hasExecutor(subscriptionId: string): boolean {
    return this.executors.has(subscriptionId);
  }

  /** True when this subscription runs in this process. */
  isBound(subscription: EventSubscriptionDeclaration): boolean {
    return (
      this.options.EnableInProcessSubscriptionExecution &&
      subscription.executionOwnership === 'core-managed' &&
      this.executors.has(subscription.id)
    );
  }

  /**
   * Runs the bound subscriptions of `message`. `stopSignal` (the dispatch job's signal) aborts attempts like
   * the run's own: an attempt aborted by either is `interrupted`, not failed.
   */
  async run(
    subscriptions: readonly Owned<EventSubscriptionDeclaration>[],
    message: EventMessage,
    stopSignal?: AbortSignal,
  ): Promise<SubscriptionRunResult[]> {
    const bound = subscriptions.filter((subscription) => this.isBound(subscription));
    return Promise.all(bound.map((subscription) => this.runOne(subscription.id, message, stopSignal)));
  }

  private async runOne(
    subscriptionId: string,
    message: EventMessage,
    stopSignal: AbortSignal | undefined,
  ): Promise<SubscriptionRunResult> {
    const record = this.record(subscriptionId);
    record.executionCount += 1;
    const ledgerKey = `${subscriptionId}|${message.publicationId}`;
    let result: SubscriptionRunResult;
    if (this.options.EnableInProcessSubscriptionIdempotency && (await this.ledger.get(ledgerKey))) {
      result = { subscriptionId, outcome: 'skipped', attempts: 0, error: null };
    } else {
      result = await this.attempt(subscriptionId, message, record, stopSignal);
      if (result.outcome === 'succeeded' && this.options.EnableInProcessSubscriptionIdempotency) {
        await this.ledger
          .put(
            ledgerKey,
            { completedAtUtc: new Date().toISOString() },
            { ttlMs: this.options.InProcessSubscriptionIdempotencyRetentionMinutes * 60_000 },
          )
          .catch(() => undefined);
      }
    }
    record[`${result.outcome}Count`] += 1;
    record.lastOutcome = result.outcome;
    record.lastError = result.error;
    if (result.attempts > 0) record.lastAttempt = result.attempts;
    record.publicationMetadata = {
      'publicationMetadata.publicationId': message.publicationId,
      'publicationMetadata.channelId': message.channelId,
      'publicationMetadata.eventType': message.eventType,
      'publicationMetadata.outcome': result.outcome,
      'publicationMetadata.observedAtUtc': new Date().toISOString(),
      'publicationMetadata.correlationId': message.correlationId,
      ...Object.fromEntries(
        Object.entries(message.metadata).map(([key, value]) => [`publicationMetadata.${key}`, value]),
      ),
    };
    return result;
  }

  private async attempt(
    subscriptionId: string,
    message: EventMessage,
    record: SubscriptionRuntimeRecord,
    jobSignal: AbortSignal | undefined,
  ): Promise<SubscriptionRunResult> {
    const executor = this.executors.get(subscriptionId)!;
    const maxAttempts = this.options.InProcessSubscriptionMaxAttempts;
    const run = this.current;
    const stopSignal = jobSignal ? AbortSignal.any([run.signal, jobSignal]) : run.signal;
    const interrupted = (attempts: number): SubscriptionRunResult => ({
      subscriptionId,
      outcome: 'interrupted',
      attempts,
      error: 'the engine stopped before the subscription completed',
    });
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      if (run.stopping || stopSignal.aborted) return interrupted(attempt - 1);
      try {
        await this.withTimeout(stopSignal, (signal) =>
          executor({ subscriptionId, message, attempt, signal }),
        );
        return { subscriptionId, outcome: 'succeeded', attempts: attempt, error: null };
      } catch (error) {
        if (!(error instanceof AttemptTimeout) && stopSignal.aborted) return interrupted(attempt);
        const lastError =
          error instanceof AttemptTimeout
            ? `attempt ${attempt} timed out after ${this.options.InProcessSubscriptionTimeoutMilliseconds} ms`
            : summarize(error);
        if (attempt >= maxAttempts) {
          return { subscriptionId, outcome: 'failed', attempts: attempt, error: lastError };
        }
        record.retryScheduledCount += 1;
        await delay(this.options.InProcessSubscriptionRetryDelayMilliseconds, stopSignal);
      }
    }
    return interrupted(maxAttempts);
  }

  /**
   * Runs one attempt under the attempt timeout and the stop signal. An executor that returns without a
   * promise has finished: no timer is armed for it. One that returns a promise races a single timer.
   */
  private withTimeout(
    stopSignal: AbortSignal,
    run: (signal: AbortSignal) => Promise<void> | void,
  ): Promise<void> | undefined {
    const controller = new AbortController();
    const onStop = () => controller.abort();
    if (stopSignal.aborted) controller.abort();
    stopSignal.addEventListener('abort', onStop, { once: true });
    let pending: Promise<void> | void;
    try {
      pending = run(controller.signal);
    } catch (error) {
      stopSignal.removeEventListener('abort', onStop);
      return Promise.reject(error);
    }
    if (!isThenable(pending)) {
      stopSignal.removeEventListener('abort', onStop);
      return undefined;
    }
    const work = pending;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stopSignal.removeEventListener('abort', onStop);
        controller.abort();
        reject(new AttemptTimeout());
      }, this.options.InProcessSubscriptionTimeoutMilliseconds);
      timer.unref?.();
      const settle = () => {
        clearTimeout(timer);
        stopSignal.removeEventListener('abort', onStop);
      };
      work.then(
        () => {
          settle();
          resolve();
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  }
}

function isThenable(value: unknown): value is Promise<void> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** A bounded, safe one-line error summary (error messages of executors are the application's own). */
export function summarize(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref?.();
    function done() {
      signal?.removeEventListener('abort', done);
      clearTimeout(timer);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
