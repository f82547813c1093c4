import {
  keepLeaseRenewed,
  type Logger,
  type PackCounter,
  type PackMeter,
  type PackTracer,
  type RuntimeStoryWriter,
} from '@corekit/abstractions';
import type { DispatchPostureChange, DispatchReport, DispatchStateBook } from './dispatch-states';
import { eventingEventIds } from './eventing-event-ids';
import type { EventingOptions } from './eventing-options';
import type { EventMessage } from './eventing-model';
import type { ClaimedOutboxMessage, EventDispatcher, OutboxStore } from './outbox-store';
import { destinationOn, MessagingTelemetry } from './messaging-telemetry';
import { summarize } from './subscription-runner';

/** What one dispatch pass did. */
export interface DispatchPassResult {
  readonly claimed: number;
  readonly succeeded: number;
  readonly retryScheduled: number;
  readonly failed: number;
  readonly claimLost: number;
  /** Claims given back untouched because the engine stopped meanwhile (their attempt not counted). */
  readonly released: number;
}

/**
 * Told when messages leave the outbox for good: confirmed by the destination (`succeeded`) or terminally
 * failed. The pack records it as the publications' outcome when the dispatcher is a broker (the in-process
 * dispatcher records the subscriptions' own outcome instead).
 */
export type PublicationSettlement = (
  messages: readonly EventMessage[],
  outcome: 'succeeded' | 'failed',
  error: string | null,
) => Promise<void>;

/** What the loop needs of the engine run it belongs to. */
export interface DispatchRunState {
  /** True once the engine began stopping: no batch is claimed, failures give their message back. */
  readonly stopping: boolean;
}

/**
 * Resolves after two turns of the event loop's check phase. Client libraries (amqplib, mqtt.js) write what a
 * dispatch queued from a setImmediate callback; bookkeeping deferred this way runs after that write.
 */
const afterWrites = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** What a pass did so far (the mutable form of DispatchPassResult). */
type Tally = { -readonly [K in keyof DispatchPassResult]: DispatchPassResult[K] };

/** Batches one pass sends at most before yielding to the next interval. */
const maxBatchesPerPass = 100;

const reportEventIds: Partial<Record<DispatchReport['outcome'], number>> = {
  started: eventingEventIds.dispatchStarted,
  succeeded: eventingEventIds.dispatchSucceeded,
  'retry-scheduled': eventingEventIds.dispatchRetryScheduled,
  failed: eventingEventIds.dispatchTerminalFailure,
};

/**
 * One dispatch pass over the outbox: claim a batch under a lease, send each message with the dispatcher,
 * then complete it, schedule a retry, or fail it terminally after `MaxAttempts`. Every attempt is counted in
 * the dispatch state book: starts and successes once per batch, each failure on its own; posture changes
 * (retry pending, terminal failure, recovery) go to the story.
 * Claims are renewed while their batch is sent (`OutboxStore.extend`), so a slow send keeps them. Delivery is
 * at-least-once: a message whose claim was lost before completion (its dispatcher died or was cut off from the
 * store longer than the lease) is sent again by the one that took it over.
 */
export class OutboxDispatchLoop {
  constructor(
    /** Identifies this engine's claims: the engine instance id (`builder.instanceId`). */
    readonly owner: string,
    private readonly options: EventingOptions['Outbox'],
    private readonly outbox: OutboxStore,
    private readonly dispatcher: EventDispatcher,
    private readonly book: DispatchStateBook,
    private readonly writers: {
      logger: Logger;
      story: RuntimeStoryWriter;
      meter: PackMeter;
      tracer: PackTracer;
    },
    private readonly run: DispatchRunState = { stopping: false },
    private readonly publicationSettled: PublicationSettlement | null = null,
  ) {
    this.reports = writers.meter.counter(
      'corekit.eventing.dispatch.reports',
      'outbox dispatch reports by outcome',
    );
    this.messaging = new MessagingTelemetry(writers);
  }

  private readonly reports: PackCounter;
  private readonly messaging: MessagingTelemetry;
  /** The reports not yet recorded in the book, in order. */
  private reporting: Promise<void> = Promise.resolve();

  /**
   * One pass drains the outbox in batches, pipelined: while a batch is being sent, the next one is claimed,
   * and a sent batch is settled while the next one is sent. A full batch is followed by another (at most
   * `maxBatchesPerPass`); a short or empty one ends the pass. Once the engine stops, no batch is claimed; a
   * batch already claimed is sent and settled, so no claim is left to expire, except that a message whose
   * send failed while stopping is given back (`release`) without counting its attempt: a stop never spends
   * the attempts of staged work.
   */
  async pass(signal: AbortSignal): Promise<DispatchPassResult> {
    const totals: Tally = {
      claimed: 0,
      succeeded: 0,
      retryScheduled: 0,
      failed: 0,
      claimLost: 0,
      released: 0,
    };
    const claim = () =>
      this.run.stopping
        ? Promise.resolve([])
        : this.outbox.claim(this.owner, this.options.BatchSize, this.options.LeaseSeconds * 1000);
    let next: Promise<ClaimedOutboxMessage[]> = claim();
    let settling: Promise<void> = Promise.resolve();
    for (let batch = 0; ; batch += 1) {
      const claimed = await next;
      if (claimed.length === 0) break;
      totals.claimed += claimed.length;
      const more =
        claimed.length === this.options.BatchSize &&
        batch + 1 < maxBatchesPerPass &&
        !signal.aborted &&
        !this.run.stopping;
      // The batch goes to the dispatcher first; claiming the next one and settling this one wait until the
      // client library has written it, so they overlap the destination's confirm wait instead of delaying it.
      const sending = this.sendKept(claimed, signal);
      next = more ? afterWrites().then(claim) : Promise.resolve([]);
      const sent = await sending;
      settling = settling.then(afterWrites).then(() => this.settle(claimed, sent, totals));
      if (!more) break;
    }
    await settling;
    await this.reporting;
    return totals;
  }

  /** Settles a sent batch: completes what was delivered, schedules retries or fails the rest; adds to `totals`. */
  private async settle(
    claimed: readonly ClaimedOutboxMessage[],
    sent: readonly (string | null)[],
    totals: Tally,
  ): Promise<void> {
    const delivered = claimed.filter((_, index) => sent[index] === null);
    const completed = await this.completeAll(delivered);
    const succeeded = delivered.filter((claim) => completed.has(claim.id));
    // Successes are reported once per batch (the state shows the batch's last message).
    if (succeeded.length > 0) {
      this.reportBatch(succeeded, 'succeeded');
      await this.publicationSettled?.(
        succeeded.map((claim) => claim.message),
        'succeeded',
        null,
      );
    }
    totals.succeeded += succeeded.length;
    totals.claimLost += delivered.length - succeeded.length;
    for (const claim of delivered) if (!completed.has(claim.id)) this.claimLost(claim);
    if (delivered.length === claimed.length) return;
    const outcomes = await Promise.all(
      claimed.flatMap((claim, index) => {
        const error = sent[index];
        return error === null ? [] : [this.settleFailure(claim, error)];
      }),
    );
    for (const outcome of outcomes) {
      if (outcome === 'retry-scheduled') totals.retryScheduled += 1;
      else if (outcome === 'failed') totals.failed += 1;
      else if (outcome === 'released') totals.released += 1;
      else totals.claimLost += 1;
    }
  }

  private base(claim: ClaimedOutboxMessage) {
    return {
      outboxId: this.options.OutboxId,
      channelId: claim.message.channelId,
      messageId: claim.id,
      attempt: claim.attempt,
    };
  }

  private metadata(claim: ClaimedOutboxMessage) {
    return { dispatcherId: this.dispatcher.id, eventType: claim.message.eventType };
  }

  private reportBatch(claims: readonly ClaimedOutboxMessage[], outcome: 'started' | 'succeeded'): void {
    const last = claims[claims.length - 1]!;
    this.report({ ...this.base(last), outcome, metadata: this.metadata(last) }, claims.length);
  }

  /**
   * Sends a batch while its claims are renewed every third of `Outbox:LeaseSeconds` (`keepLeaseRenewed`, when the
   * outbox can `extend` them), so a send slower than the lease keeps its claims and no other dispatcher sends the
   * batch again meanwhile. Claims lost anyway are dropped from the renewal and settle nothing (`claimLost`); once
   * every claim is lost (or renewals failed until the lease ran out) the send's signal is aborted.
   */
  private async sendKept(
    claimed: readonly ClaimedOutboxMessage[],
    signal: AbortSignal,
  ): Promise<readonly (string | null)[]> {
    const extend = this.outbox.extend?.bind(this.outbox);
    if (!extend) return this.sendAll(claimed, signal);
    const leaseMs = this.options.LeaseSeconds * 1000;
    let held: readonly string[] = claimed.map((claim) => claim.id);
    const renewal = keepLeaseRenewed({
      expiresAtMs: Date.now() + leaseMs,
      renewEveryMs: Math.max(100, Math.floor(leaseMs / 3)),
      renew: async () => {
        held = await extend(held, this.owner, leaseMs);
        return held.length > 0 ? Date.now() + leaseMs : null;
      },
    });
    try {
      return await this.sendAll(claimed, AbortSignal.any([signal, renewal.signal]));
    } finally {
      await renewal.stop();
    }
  }

  /**
   * Sends a batch: with one `dispatchMany` call when the dispatcher offers it, else one `dispatch` per
   * message, concurrently. Answers, in order, null for each confirmed message, else the error summary. The
   * send is measured per the messaging conventions (a `send {destination}` span per destination).
   */
  private async sendAll(
    claimed: readonly ClaimedOutboxMessage[],
    signal: AbortSignal,
  ): Promise<readonly (string | null)[]> {
    this.reportBatch(claimed, 'started');
    return this.messaging.send(
      claimed.map((claim) => claim.message),
      (message) => destinationOn(this.dispatcher, message),
      () => this.sendBatch(claimed, signal),
    );
  }

  private async sendBatch(
    claimed: readonly ClaimedOutboxMessage[],
    signal: AbortSignal,
  ): Promise<(string | null)[]> {
    const dispatchMany = this.dispatcher.dispatchMany?.bind(this.dispatcher);
    if (!dispatchMany) return Promise.all(claimed.map((claim) => this.send(claim, signal)));
    try {
      const errors = await dispatchMany(
        claimed.map((claim) => claim.message),
        signal,
      );
      return claimed.map((_, index) => {
        const error = errors[index];
        return error === null ? null : summarize(error ?? new Error('the dispatcher gave no outcome'));
      });
    } catch (caught) {
      const error = summarize(caught);
      return claimed.map(() => error);
    }
  }

  /** Sends one message; null when the destination confirmed it, else the error summary. */
  private async send(claim: ClaimedOutboxMessage, signal: AbortSignal): Promise<string | null> {
    try {
      await this.dispatcher.dispatch(claim.message, signal);
      return null;
    } catch (caught) {
      return summarize(caught);
    }
  }

  /** Marks delivered messages dispatched: one batch call when the outbox offers it. */
  private async completeAll(delivered: readonly ClaimedOutboxMessage[]): Promise<Set<string>> {
    if (delivered.length === 0) return new Set();
    const ids = delivered.map((claim) => claim.id);
    if (this.outbox.completeMany) return new Set(await this.outbox.completeMany(ids, this.owner));
    const settled = await Promise.all(ids.map((id) => this.outbox.complete(id, this.owner)));
    return new Set(ids.filter((_, index) => settled[index]));
  }

  private async settleFailure(claim: ClaimedOutboxMessage, error: string): Promise<string> {
    // A send that failed while the engine stops (an executor aborted by the stop, a closing connection) is
    // not the message's fault: it goes back as it was, for the next start. Without `release` the claim stays
    // until its lease expires.
    if (this.run.stopping) {
      if (!this.outbox.release) return 'released';
      return (await this.outbox.release(claim.id, this.owner)) ? 'released' : this.claimLost(claim);
    }
    const metadata = this.metadata(claim);
    if (claim.attempt >= this.options.MaxAttempts) {
      if (!(await this.outbox.fail(claim.id, this.owner, error))) return this.claimLost(claim);
      this.report({ ...this.base(claim), outcome: 'failed', terminal: true, error, metadata });
      await this.publicationSettled?.([claim.message], 'failed', error);
      return 'failed';
    }
    const availableAt = new Date(Date.now() + this.options.RetryDelayMilliseconds);
    if (!(await this.outbox.retry(claim.id, this.owner, availableAt, error))) return this.claimLost(claim);
    this.report({
      ...this.base(claim),
      outcome: 'retry-scheduled',
      error,
      metadata: { ...metadata, nextAttemptAtUtc: availableAt.toISOString() },
    });
    return 'retry-scheduled';
  }

  private claimLost(claim: ClaimedOutboxMessage): string {
    this.writers.logger.log({
      level: 'warn',
      eventId: eventingEventIds.dispatchClaimLost,
      category: 'eventing',
      message: `The claim on an outbox message expired before it was settled; another dispatcher may send it again`,
      outboxId: this.options.OutboxId,
      attempt: claim.attempt,
    });
    return 'claim-lost';
  }

  /**
   * Counts and logs a report at once; records it in the dispatch state book behind the reports before it
   * (one at a time, so a shared store sees them in order; a pass ends once its reports are recorded), then
   * writes the posture changes it made to the story.
   */
  private report(report: DispatchReport, count = 1): void {
    this.reports.add(count, { outcome: report.outcome, terminal: report.terminal === true });
    // Successes are visible on the dispatch state; only failures are logged, once per attempt.
    const eventId = reportEventIds[report.outcome];
    if (eventId !== undefined && (report.outcome === 'retry-scheduled' || report.outcome === 'failed')) {
      this.writers.logger.log({
        level: 'warn',
        eventId,
        category: 'eventing',
        message: `Dispatch ${report.outcome} on outbox ${report.outboxId} (attempt ${report.attempt})`,
        outboxId: report.outboxId,
        attempt: report.attempt,
        ...(report.error ? { error: report.error } : {}),
      });
    }
    this.reporting = this.reporting
      .then(() => this.book.report(report, count))
      .then(
        (changes) => this.recordPostureChanges(changes),
        (error: unknown) =>
          this.writers.logger.log({
            level: 'warn',
            eventId: eventingEventIds.dispatchPassFailed,
            category: 'eventing',
            message: `A dispatch state of outbox ${report.outboxId} could not be recorded`,
            error: summarize(error),
          }),
      );
  }

  private recordPostureChanges(changes: readonly DispatchPostureChange[]): void {
    for (const change of changes) {
      this.writers.story.record({
        kind: 'eventing.dispatch',
        subjectId: change.outboxId,
        transition: change.transition,
        message: `Outbox ${change.outboxId}: ${change.transition} (latest outcome ${change.state.outcome}, attempt ${change.state.attempt})`,
        details: {
          retryPending: change.state.retryPending,
          terminalFailure: change.state.terminalFailure,
          terminalFailureCount: change.state.terminalFailureCount,
        },
      });
      if (change.transition === 'recovered') {
        this.writers.logger.log({
          level: 'info',
          eventId: eventingEventIds.dispatchRecovered,
          category: 'eventing',
          message: `Outbox ${change.outboxId} dispatches again after a terminal failure`,
        });
      }
    }
  }
}
