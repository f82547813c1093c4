import {
  keepLeaseRenewed,
  type CdcCaptureDescriptor,
  type LeaseRenewal,
  type PackCounter,
  type PackHistogram,
} from '@corekit/abstractions';
import { completeRestart, openGap } from './capture-gaps';
import type { CaptureStateBook } from './capture-state-book';
import type { CaptureGap, CdcCaptureRuntimeObservation, failureKinds } from './data-model';
import type { RuntimeDeclaration } from './execution-binding';
import { FailureBackoff } from './failure-backoff';
import {
  CdcProviderError,
  type CaptureRestart,
  type CdcPollingProvider,
  type StagedBatch,
} from './polling-provider';

/** The result of one pump pass, per capture. */
export interface PumpPassResult {
  readonly captures: ReadonlyArray<{
    readonly cdcCaptureId: string;
    readonly outcome: 'captured' | 'idle' | 'failed' | 'standby';
    readonly capturedChangeCount: number;
    readonly producedMessageCount: number;
    readonly failureKind?: string;
  }>;
}

export interface PumpCounters {
  readonly capturedChanges: PackCounter;
  readonly producedMessages: PackCounter;
  readonly acknowledgementFailures: PackCounter;
  /** What sources hold back per capture (a slot's unconfirmed WAL), recorded each pass a provider says. */
  readonly retainedBytes: PackHistogram;
}

/** What the pump calls around a step; the pack logs and records the story through it. */
export interface PumpObserver {
  stepFailed(capture: CdcCaptureDescriptor, step: string, failureKind: string, message: string): void;
  /** A gap was found (once per gap): the capture stops until an operator decides. */
  gapDetected(capture: CdcCaptureDescriptor, gap: CaptureGap): void;
  /** An operator's restart was performed (the gap, if any, is closed). */
  restarted(capture: CdcCaptureDescriptor, action: CaptureRestart, closedGap: CaptureGap | null): void;
  /** The source's retention for the capture went above (or back under) the attention bound. */
  retentionCrossed(capture: CdcCaptureDescriptor, bytes: number, above: boolean): void;
  /** The reporter lease was lost while a batch ran (taken over, or it ran out while it could not be renewed). */
  leaseLost(capture: CdcCaptureDescriptor, reason: 'taken-over' | 'expired'): void;
}

export interface CapturePumpSettings {
  readonly reporterId: string;
  readonly batchSize: number;
  readonly maxBatchesPerPass: number;
  /** Delay after the second consecutive failure of a capture, doubling up to `maxFailureBackoffMs`. */
  readonly failureBackoffMs: number;
  readonly maxFailureBackoffMs: number;
  /** Retained bytes above which a capture is reported to the operator. */
  readonly retentionAttentionBytes: number;
  /** How often a batch in flight renews the reporter lease. Default a third of the runtime's lease. */
  readonly leaseRenewMs?: number;
}

type CaptureResult = PumpPassResult['captures'][number];
type FailureKind = (typeof failureKinds)[number];

/**
 * The shared in-process polling pump: for every capture it effectively owns, runs the graph
 * `data-cdc-capture-flow` — read changes after the durable checkpoint and stage them in the outbox
 * (`stage-cdc-outbox`), acknowledge (`acknowledge-cdc-progress`), then report the runtime state
 * (`report-cdc-runtime-state`). The durable checkpoint lives in the capture's runtime-state record and only
 * advances after a successful acknowledgement; a failure on one capture never stops the others.
 */
export class CapturePump {
  private readonly backoff: FailureBackoff;
  /** The restart request last tried per capture (its requestedAtUtc): a new one skips the backoff once. */
  private readonly triedRestarts = new Map<string, string>();

  constructor(
    private readonly runtime: RuntimeDeclaration,
    private readonly book: CaptureStateBook,
    private readonly providers: ReadonlyMap<string, CdcPollingProvider>,
    private readonly settings: CapturePumpSettings,
    private readonly counters: PumpCounters,
    private readonly observer: PumpObserver,
    private readonly now: () => number,
  ) {
    this.backoff = new FailureBackoff(settings.failureBackoffMs, settings.maxFailureBackoffMs);
  }

  async pass(captures: readonly CdcCaptureDescriptor[], signal: AbortSignal): Promise<PumpPassResult> {
    const results: Array<PumpPassResult['captures'][number]> = [];
    for (const capture of captures) {
      if (signal.aborted) break;
      results.push(await this.runCapture(capture, signal));
    }
    return { captures: results };
  }

  private async runCapture(capture: CdcCaptureDescriptor, signal: AbortSignal): Promise<CaptureResult> {
    // The lease is claimed in the store before any work: another replica's live pump keeps this one standby,
    // and of several pumps that see a lapsed lease one takes the capture over.
    if (!(await this.book.claim(capture.id, this.settings.reporterId, this.runtime, this.now()))) {
      return {
        cdcCaptureId: capture.id,
        outcome: 'standby' as const,
        capturedChangeCount: 0,
        producedMessageCount: 0,
      };
    }
    const stored = await this.book.read(capture.id);
    const restart = stored.restartRequest?.action;
    // An open gap stops the capture until an operator decides: nothing is resumed, created or skipped.
    if (stored.gap && !restart) return failedResult(capture, 'gap');
    // An operator's new restart request is tried at once, whatever the backoff of earlier failures.
    const requestedAt = stored.restartRequest?.requestedAtUtc ?? null;
    const freshRequest = requestedAt !== null && this.triedRestarts.get(capture.id) !== requestedAt;
    if (requestedAt !== null) this.triedRestarts.set(capture.id, requestedAt);
    if (!freshRequest && !this.backoff.ready(capture.id, this.now()))
      return failedResult(capture, stored.failureKind ?? 'provider');
    const provider = this.providers.get(capture.provider);
    const result = provider
      ? await this.stream(capture, provider, restart, signal)
      : await this.fail(
          capture,
          'stage-cdc-outbox',
          'provider',
          `no polling provider serves provider "${capture.provider}" in this process${capture.provider === 'postgresql' ? ' (set Engine:Data:CapturePump:PostgreSqlConnectionString)' : ''}`,
        );
    if (result.outcome === 'failed') this.backoff.failed(capture.id, this.now());
    else this.backoff.succeeded(capture.id);
    return result;
  }

  /** Reports a failed step (state, log) and answers the pass result. */
  private async fail(
    capture: CdcCaptureDescriptor,
    step: string,
    failureKind: FailureKind,
    message: string,
    counts: { captured: number; produced: number } = { captured: 0, produced: 0 },
  ): Promise<CaptureResult> {
    await this.report(capture, { outcome: 'failed', error: message, failureKind });
    this.observer.stepFailed(capture, step, failureKind, message);
    return {
      ...failedResult(capture, failureKind),
      capturedChangeCount: counts.captured,
      producedMessageCount: counts.produced,
    };
  }

  /** Stores the gap a provider found (first sight only), reports it and tells the observer. */
  private async gapFound(capture: CdcCaptureDescriptor, error: CdcProviderError): Promise<CaptureResult> {
    const before = await this.book.read(capture.id);
    const after = await this.book.update(capture.id, (record) =>
      openGap(record, { reasonCode: error.code, reason: error.message }, new Date(this.now()).toISOString()),
    );
    await this.report(capture, {
      outcome: 'failed',
      error: error.message,
      failureKind: 'gap',
      completeness: after.completeness ?? undefined,
    });
    if (!before.gap) this.observer.gapDetected(capture, after.gap!);
    return failedResult(capture, 'gap');
  }

  /** Batches of one capture until a short batch, `maxBatchesPerPass` or a failure. */
  private async stream(
    capture: CdcCaptureDescriptor,
    provider: CdcPollingProvider,
    restart: CaptureRestart | undefined,
    signal: AbortSignal,
  ): Promise<CaptureResult> {
    let captured = 0;
    let produced = 0;
    let idleReported = false;
    let completeness: StagedBatch['completeness'];
    let metadata: StagedBatch['metadata'];
    let retention: StagedBatch['retention'];
    for (let batchIndex = 0; batchIndex < this.settings.maxBatchesPerPass && !signal.aborted; batchIndex++) {
      const current = await this.book.read(capture.id);
      const restarting = batchIndex === 0 ? restart : undefined;
      const checkpoint = restarting
        ? null
        : (current.acknowledgement.durableCheckpoint ?? current.checkpoint);
      let batch: StagedBatch;
      // The reporter lease is renewed while the batch is read and staged, so a batch slower than the lease is
      // not taken over meanwhile; a lease lost anyway ends the pass for this capture with nothing
      // acknowledged or reported (the pump that holds it now resumes from the durable checkpoint).
      const lease = this.keepLease(capture);
      try {
        batch = await provider.stageBatch({
          capture,
          checkpoint,
          batchSize: this.settings.batchSize,
          signal: AbortSignal.any([signal, lease.signal]),
          ...(restarting ? { restart: restarting } : {}),
        });
      } catch (error) {
        if (!lease.held()) return this.leaseLost(capture, lease, { captured, produced });
        if (error instanceof CdcProviderError && error.failureKind === 'gap')
          return this.gapFound(capture, error);
        const failureKind = error instanceof CdcProviderError ? error.failureKind : 'provider';
        return this.fail(capture, 'stage-cdc-outbox', failureKind, messageOf(error), { captured, produced });
      } finally {
        await lease.stop();
      }
      if (!lease.held()) return this.leaseLost(capture, lease, { captured, produced });
      if (restarting) {
        const closed = current.gap ?? null;
        await this.book.update(capture.id, (record) =>
          completeRestart(record, new Date(this.now()).toISOString()),
        );
        this.observer.restarted(capture, restarting, closed);
      }
      this.noteRetention(capture, current.retention?.bytes ?? null, batch);
      completeness = batch.completeness ?? completeness;
      metadata = batch.metadata ?? metadata;
      retention = batch.retention ?? retention;
      if (batch.capturedChangeCount === 0) {
        // A provider that positions an empty read (a change stream's post-batch resume token) moves the
        // checkpoint so that changes made while no stream is open are not skipped.
        if (batch.nextCheckpoint !== null && batch.nextCheckpoint !== checkpoint) {
          await provider.acknowledge({ capture, batch });
          await this.report(capture, {
            outcome: 'idle',
            completeness: batch.completeness,
            metadata: batch.metadata,
            ...(batch.retention ? { retention: batch.retention } : {}),
            checkpoint: batch.nextCheckpoint,
            acknowledgement: {
              state: 'acknowledged',
              acknowledgerServiceType: provider.acknowledgerServiceType,
            },
          });
          idleReported = true;
        }
        break;
      }
      captured += batch.capturedChangeCount;
      produced += batch.producedMessageCount;
      this.counters.capturedChanges.add(batch.capturedChangeCount, { provider: capture.provider });
      this.counters.producedMessages.add(batch.producedMessageCount, { provider: capture.provider });
      try {
        await provider.acknowledge({ capture, batch });
      } catch (error) {
        const message = `acknowledgement failed: ${messageOf(error)}`;
        this.counters.acknowledgementFailures.add(1, { provider: capture.provider });
        await this.report(capture, {
          outcome: 'failed',
          error: message,
          failureKind: 'acknowledgement',
          capturedChangeCount: batch.capturedChangeCount,
          producedMessageCount: batch.producedMessageCount,
          changeId: batch.lastChangeId,
          checkpoint,
          lagSeconds: batch.lagSeconds,
          acknowledgement: {
            state: 'failed',
            acknowledgerServiceType: provider.acknowledgerServiceType,
            pendingCheckpoint: batch.nextCheckpoint,
            pendingChangeId: batch.lastChangeId,
          },
        });
        this.observer.stepFailed(capture, 'acknowledge-cdc-progress', 'acknowledgement', message);
        return {
          cdcCaptureId: capture.id,
          outcome: 'failed' as const,
          capturedChangeCount: captured,
          producedMessageCount: produced,
          failureKind: 'acknowledgement',
        };
      }
      await this.report(capture, {
        outcome: 'captured',
        capturedChangeCount: batch.capturedChangeCount,
        producedMessageCount: batch.producedMessageCount,
        checkpoint: batch.nextCheckpoint,
        changeId: batch.lastChangeId,
        lagSeconds: batch.lagSeconds,
        outboxDispatchState: 'staged',
        completeness: batch.completeness,
        metadata: batch.metadata,
        ...(batch.retention ? { retention: batch.retention } : {}),
        acknowledgement: { state: 'acknowledged', acknowledgerServiceType: provider.acknowledgerServiceType },
      });
      if (batch.capturedChangeCount < this.settings.batchSize) break;
    }
    if (captured === 0 && !idleReported)
      await this.report(capture, {
        outcome: 'idle',
        completeness,
        metadata,
        ...(retention ? { retention } : {}),
      });
    return {
      cdcCaptureId: capture.id,
      outcome: captured === 0 ? ('idle' as const) : ('captured' as const),
      capturedChangeCount: captured,
      producedMessageCount: produced,
    };
  }

  /** Keeps this pump's reporter lease on `capture` renewed (a claim by its holder renews it) while a batch runs. */
  private keepLease(capture: CdcCaptureDescriptor): LeaseRenewal {
    const leaseMs = this.runtime.reporterLeaseSeconds * 1000;
    return keepLeaseRenewed({
      // The claim at the start of the pass, or the previous batch's report, renewed it just before.
      expiresAtMs: this.now() + leaseMs,
      renewEveryMs: this.settings.leaseRenewMs ?? Math.max(100, Math.floor(leaseMs / 3)),
      now: this.now,
      renew: async () =>
        (await this.book.claim(capture.id, this.settings.reporterId, this.runtime, this.now()))
          ? this.now() + leaseMs
          : null,
    });
  }

  /** A batch whose lease was lost while it ran: standby, nothing acknowledged or reported; the observer is told. */
  private leaseLost(
    capture: CdcCaptureDescriptor,
    lease: LeaseRenewal,
    counts: { captured: number; produced: number },
  ): CaptureResult {
    this.observer.leaseLost(capture, lease.lostReason ?? 'taken-over');
    return {
      cdcCaptureId: capture.id,
      outcome: 'standby' as const,
      capturedChangeCount: counts.captured,
      producedMessageCount: counts.produced,
    };
  }

  /** Records the source's retention and tells the observer when it crosses the attention bound. */
  private noteRetention(capture: CdcCaptureDescriptor, previous: number | null, batch: StagedBatch): void {
    const bytes = batch.retention?.bytes;
    if (bytes === null || bytes === undefined) return;
    this.counters.retainedBytes.record(bytes, { provider: capture.provider });
    const bound = this.settings.retentionAttentionBytes;
    const wasAbove = previous !== null && previous > bound;
    if (bytes > bound !== wasAbove) this.observer.retentionCrossed(capture, bytes, bytes > bound);
  }

  /** `report-cdc-runtime-state`: the pump reports like any runner, under its own reporter id and lease. */
  private async report(
    capture: CdcCaptureDescriptor,
    observation: Partial<CdcCaptureRuntimeObservation> & Pick<CdcCaptureRuntimeObservation, 'outcome'>,
  ): Promise<void> {
    await this.book.observe(
      {
        cdcCaptureId: capture.id,
        reporterId: this.settings.reporterId,
        capturedChangeCount: 0,
        producedMessageCount: 0,
        ...observation,
      },
      this.runtime,
    );
  }
}

function failedResult(capture: CdcCaptureDescriptor, failureKind: string): CaptureResult {
  return {
    cdcCaptureId: capture.id,
    outcome: 'failed',
    capturedChangeCount: 0,
    producedMessageCount: 0,
    failureKind,
  };
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 400);
}
