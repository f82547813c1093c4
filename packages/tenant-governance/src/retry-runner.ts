import { defineExtensionKey, OperationError, type JobHandle, type Logger } from '@corekit/abstractions';
import { claimLostReason, type DeliveryDispatcher } from './delivery-dispatcher';
import { deliveryEventIds } from './delivery-event-ids';
import type { DeliveryOptions } from './delivery-options';
import type { DueRetry, RetryQueue, RetryQueueEntry } from './retry-queue';

/** The answer of one retry pass. */
export type RetryPassResult =
  | {
      readonly status: 'completed';
      readonly source: string;
      /** Due entries attempted. */
      readonly attempted: number;
      readonly succeeded: number;
      readonly rescheduled: number;
      readonly exhausted: number;
      /**
       * Entries dropped because the invitation is gone or no longer pending or sent, or no registered sender
       * matches the entry any more (`abandonedDispatchCodes`).
       */
      readonly abandoned: number;
      /**
       * Entries kept in the queue after a transient failure of their retry (a store I/O error, a network or
       * any other unexpected error): retried on a later pass, their attempt count as the failure left it.
       */
      readonly retained: number;
      /**
       * Entries skipped because the same delivery was in flight in this process, or another replica claimed
       * the entry first (on a shared store).
       */
      readonly skipped: number;
      /** Entries taken over from a replica whose claim lease ended (the interrupted attempt counted). */
      readonly takenOver: number;
      /**
       * Retries whose claim was lost while their send was in flight (taken over by another replica, or the
       * lease ran out while renewals failed): their outcome was not recorded; the holder records its own.
       */
      readonly claimLost: number;
      readonly remaining: number;
      readonly startedAtUtc: string;
      readonly completedAtUtc: string;
    }
  | { readonly status: 'already-running'; readonly source: string }
  | { readonly status: 'failed'; readonly source: string; readonly error: string }
  | { readonly status: 'not-running'; readonly source: string };

/**
 * `RetryPendingAsync`: replays due entries of the retry queue through the dispatcher, one sender at a
 * time, bounded by MaxItems per pass. With execution coordination (default) an overlapping manual or
 * background pass of this process answers `already-running` and leaves the queue untouched. Each entry is
 * claimed (owner + lease) before its retry, so replicas on one shared store never retry an entry together.
 */
export interface InvitationDeliveryRetryRunner {
  retryPending(options?: { readonly source?: string }): Promise<RetryPassResult>;
}

/**
 * The dispatch refusals that end a queued retry for good (`abandoned`): the invitation does not exist, is no
 * longer pending or sent, or no registered sender matches. Any other failure is transient (`retained`).
 */
export const abandonedDispatchCodes: ReadonlySet<string> = new Set([
  'INVITATION_NOT_FOUND',
  'INVITATION_NOT_DELIVERABLE',
  'DELIVERY_NO_SENDERS',
]);

export const invitationDeliveryRetryRunnerKey = defineExtensionKey<InvitationDeliveryRetryRunner>(
  '@corekit/tenant-governance/invitation-delivery-retry-runner',
  'Replays the invitation delivery retry queue (RetryPendingAsync)',
);

/** Execution coordination state, per process, for the surface. */
export interface RetryExecutionState {
  inProgress: boolean;
  runCount: number;
  alreadyRunningCount: number;
  latestOutcome: string | null;
  latestStartedAtUtc: string | null;
  latestCompletedAtUtc: string | null;
}

export class RetryRunner implements InvitationDeliveryRetryRunner {
  readonly execution: RetryExecutionState = {
    inProgress: false,
    runCount: 0,
    alreadyRunningCount: 0,
    latestOutcome: null,
    latestStartedAtUtc: null,
    latestCompletedAtUtc: null,
  };
  /** The job the passes run on (set at registration; absent only without coordination). */
  job: JobHandle<RetryPassResult> | undefined;
  /** The source of the manual pass being triggered through the job. */
  private pendingSource: string | undefined;

  constructor(
    private readonly settings: DeliveryOptions,
    private readonly queue: RetryQueue,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  async retryPending(options: { readonly source?: string } = {}): Promise<RetryPassResult> {
    const source = options.source ?? 'manual';
    if (!this.settings.EnableInvitationDeliveryRetryExecutionCoordination || !this.job) {
      return this.pass(source);
    }
    if (this.execution.inProgress) return this.overlapped(source);
    this.pendingSource = source;
    const outcome = await this.job.trigger();
    if (outcome.status === 'completed') return outcome.result;
    if (outcome.status === 'already-running') return this.overlapped(source);
    if (outcome.status === 'not-running') return { status: 'not-running', source };
    return { status: 'failed', source, error: outcome.error };
  }

  /** The job's run: a manual trigger carries its source; interval and startup runs use the configured one. */
  runJob(trigger: 'startup' | 'interval' | 'manual'): Promise<RetryPassResult> {
    const source =
      trigger === 'manual'
        ? (this.pendingSource ?? 'manual')
        : this.settings.InvitationDeliveryRetryBackgroundSource;
    this.pendingSource = undefined;
    return this.pass(source);
  }

  private overlapped(source: string): RetryPassResult {
    this.execution.alreadyRunningCount++;
    this.execution.latestOutcome = 'already-running';
    this.logger.log({
      level: 'info',
      eventId: deliveryEventIds.retryPassAlreadyRunning,
      category: 'tenant-governance.delivery',
      message: `Invitation delivery retry pass already running; the ${source} pass left the queue untouched`,
      source,
    });
    return { status: 'already-running', source };
  }

  /** A claim taken over from a replica whose lease ended (4536; 4540 when the lost attempt spent the budget). */
  private logTakeover(entry: RetryQueueEntry, outcome: 'retrying' | 'exhausted'): void {
    this.logger.log({
      level: 'warn',
      eventId: outcome === 'exhausted' ? deliveryEventIds.retryExhausted : deliveryEventIds.retryQueued,
      category: 'tenant-governance.delivery',
      message: `Invitation delivery retry taken over from a replica whose claim lease ended (${outcome}; tenant ${entry.tenantId}, sender ${entry.senderId}, attempts ${entry.attempts + 1})`,
      tenantId: entry.tenantId,
      senderId: entry.senderId,
      outcome,
    });
  }

  private async pass(source: string): Promise<RetryPassResult> {
    if (!this.queue.enabled) {
      throw new OperationError(
        'conflict',
        'RETRY_QUEUE_DISABLED',
        'EnableInvitationDeliveryRetryQueue is false',
      );
    }
    const startedAtUtc = this.now().toISOString();
    Object.assign(this.execution, { inProgress: true, latestStartedAtUtc: startedAtUtc });
    this.execution.runCount++;
    const tally: PassTally = {
      attempted: 0,
      succeeded: 0,
      rescheduled: 0,
      exhausted: 0,
      abandoned: 0,
      retained: 0,
      skipped: 0,
      takenOver: 0,
      claimLost: 0,
    };
    try {
      for (const due of await this.queue.due(this.settings.InvitationDeliveryRetryMaxItems)) {
        await this.retryOne(due, source, tally);
      }
      return this.completed(source, startedAtUtc, tally);
    } catch (error) {
      this.execution.latestOutcome = 'failed';
      throw error;
    } finally {
      this.execution.inProgress = false;
    }
  }

  /** Claims one due entry and, when this process holds it, dispatches it again under the renewed claim. */
  private async retryOne(due: DueRetry, source: string, tally: PassTally): Promise<void> {
    const { key, entry } = due;
    const claim = await this.queue.claim(due);
    if (claim === 'lost') {
      tally.skipped++;
      return;
    }
    if (claim === 'taken-over') {
      tally.takenOver++;
      this.logTakeover(entry, 'retrying');
    }
    if (claim === 'exhausted') {
      tally.exhausted++;
      this.logTakeover(entry, 'exhausted');
      return;
    }
    tally.attempted++;
    // The claim is renewed while the send is in flight, so a send slower than the lease keeps it.
    const claimRenewal = this.queue.keepClaim(key);
    try {
      const result = await this.dispatcher
        .run(
          {
            tenantId: entry.tenantId,
            invitationId: entry.invitationId,
            channel: entry.channel,
            metadata: entry.metadata,
            senderIds: [entry.senderId],
          },
          source,
          claimRenewal,
        )
        .finally(() => claimRenewal.stop());
      const outcome = result.outcomes[0];
      if (outcome?.reason === claimLostReason) tally.claimLost++;
      else if (!outcome || outcome.outcome === 'already-running') {
        tally.skipped++;
        await this.queue.release(key);
      } else if (outcome.outcome !== 'sender-failed') tally.succeeded++;
      else if (outcome.retryQueued) tally.rescheduled++;
      else tally.exhausted++;
    } catch (error) {
      await this.dispatchFailed(error, key, entry, tally);
    }
  }

  /**
   * A dispatch that threw: an entry whose invitation is gone or no longer deliverable is abandoned; any other
   * failure (a store I/O error, a network error...) is transient: the entry stays for a later pass. The error
   * text is never logged (it may carry a path or an address).
   */
  private async dispatchFailed(
    error: unknown,
    key: string,
    entry: RetryQueueEntry,
    tally: PassTally,
  ): Promise<void> {
    const code = error instanceof OperationError ? error.code : undefined;
    if (code === undefined || !abandonedDispatchCodes.has(code)) {
      tally.retained++;
      await this.queue.release(key).catch(() => undefined);
      this.logger.log({
        level: 'warn',
        eventId: deliveryEventIds.retryQueued,
        category: 'tenant-governance.delivery',
        message: `Invitation delivery retry failed transiently (${code ?? 'unexpected-error'}); the entry stays queued (tenant ${entry.tenantId}, sender ${entry.senderId})`,
        tenantId: entry.tenantId,
        senderId: entry.senderId,
        code: code ?? 'unexpected-error',
      });
      return;
    }
    await this.queue.abandon(key);
    tally.abandoned++;
    this.logger.log({
      level: 'warn',
      eventId: deliveryEventIds.retryAbandoned,
      category: 'tenant-governance.delivery',
      message: `Invitation delivery retry abandoned: ${code} (tenant ${entry.tenantId}, sender ${entry.senderId})`,
      tenantId: entry.tenantId,
      senderId: entry.senderId,
      code,
    });
  }

  /** The result of a completed pass, recorded on the execution state and logged (4538). */
  private completed(source: string, startedAtUtc: string, tally: PassTally): RetryPassResult {
    const completedAtUtc = this.now().toISOString();
    const result: RetryPassResult = {
      status: 'completed',
      source,
      ...tally,
      remaining: this.queue.count,
      startedAtUtc,
      completedAtUtc,
    };
    Object.assign(this.execution, { latestOutcome: 'completed', latestCompletedAtUtc: completedAtUtc });
    this.logger.log({
      level: 'info',
      eventId: deliveryEventIds.retryPassCompleted,
      category: 'tenant-governance.delivery',
      message: `Invitation delivery retry pass (${source}): ${tally.attempted} attempted, ${tally.succeeded} succeeded, ${tally.rescheduled} rescheduled, ${tally.exhausted} exhausted, ${tally.abandoned} abandoned, ${tally.retained} retained, ${tally.skipped} skipped, ${tally.takenOver} taken over, ${tally.claimLost} claim(s) lost during the send, ${this.queue.count} remaining`,
      source,
      ...tally,
      remaining: this.queue.count,
    });
    return result;
  }
}

/** What one pass did to the entries it found due. */
interface PassTally {
  attempted: number;
  succeeded: number;
  rescheduled: number;
  exhausted: number;
  abandoned: number;
  retained: number;
  skipped: number;
  takenOver: number;
  claimLost: number;
}
