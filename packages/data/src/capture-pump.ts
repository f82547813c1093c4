import type { CdcCaptureDescriptor, PackCounter } from '@corekit/abstractions';
import type { CaptureStateBook } from './capture-state-book';
import type { CdcCaptureRuntimeObservation } from './data-model';
import type { RuntimeDeclaration } from './execution-binding';
import { CdcProviderError, type CdcPollingProvider, type StagedBatch } from './polling-provider';

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
}

/** What the pump calls around a step; the pack logs and records the story through it. */
export interface PumpObserver {
  stepFailed(capture: CdcCaptureDescriptor, step: string, failureKind: string, message: string): void;
}

export interface CapturePumpSettings {
  readonly reporterId: string;
  readonly batchSize: number;
  readonly maxBatchesPerPass: number;
}

/**
 * The shared in-process polling pump: for every capture it effectively owns, runs the graph
 * `data-cdc-capture-flow` — read changes after the durable checkpoint and stage them in the outbox
 * (`stage-cdc-outbox`), acknowledge (`acknowledge-cdc-progress`), then report the runtime state
 * (`report-cdc-runtime-state`). The durable checkpoint lives in the capture's runtime-state record and only
 * advances after a successful acknowledgement; a failure on one capture never stops the others.
 */
export class CapturePump {
  constructor(
    private readonly runtime: RuntimeDeclaration,
    private readonly book: CaptureStateBook,
    private readonly providers: ReadonlyMap<string, CdcPollingProvider>,
    private readonly settings: CapturePumpSettings,
    private readonly counters: PumpCounters,
    private readonly observer: PumpObserver,
    private readonly now: () => number,
  ) {}

  async pass(captures: readonly CdcCaptureDescriptor[], signal: AbortSignal): Promise<PumpPassResult> {
    const results: Array<PumpPassResult['captures'][number]> = [];
    for (const capture of captures) {
      if (signal.aborted) break;
      results.push(await this.runCapture(capture, signal));
    }
    return { captures: results };
  }

  private async runCapture(capture: CdcCaptureDescriptor, signal: AbortSignal) {
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
    const provider = this.providers.get(capture.provider);
    if (!provider) {
      const message = `no polling provider serves provider "${capture.provider}" in this process${capture.provider === 'postgresql' ? ' (set Engine:Data:CapturePump:PostgreSqlConnectionString)' : ''}`;
      await this.report(capture, { outcome: 'failed', error: message, failureKind: 'provider' });
      this.observer.stepFailed(capture, 'stage-cdc-outbox', 'provider', message);
      return {
        cdcCaptureId: capture.id,
        outcome: 'failed' as const,
        capturedChangeCount: 0,
        producedMessageCount: 0,
        failureKind: 'provider',
      };
    }
    let captured = 0;
    let produced = 0;
    let idleReported = false;
    let completeness: StagedBatch['completeness'];
    let metadata: StagedBatch['metadata'];
    for (let batchIndex = 0; batchIndex < this.settings.maxBatchesPerPass && !signal.aborted; batchIndex++) {
      const current = await this.book.read(capture.id);
      const checkpoint = current.acknowledgement.durableCheckpoint ?? current.checkpoint;
      let batch: StagedBatch;
      try {
        batch = await provider.stageBatch({
          capture,
          checkpoint,
          batchSize: this.settings.batchSize,
          signal,
        });
      } catch (error) {
        const failureKind = error instanceof CdcProviderError ? error.failureKind : 'provider';
        const message = messageOf(error);
        await this.report(capture, { outcome: 'failed', error: message, failureKind });
        this.observer.stepFailed(capture, 'stage-cdc-outbox', failureKind, message);
        return {
          cdcCaptureId: capture.id,
          outcome: 'failed' as const,
          capturedChangeCount: captured,
          producedMessageCount: produced,
          failureKind,
        };
      }
      completeness = batch.completeness ?? completeness;
      metadata = batch.metadata ?? metadata;
      if (batch.capturedChangeCount === 0) {
        // A provider that positions an empty read (a change stream's post-batch resume token) moves the
        // checkpoint so that changes made while no stream is open are not skipped.
        if (batch.nextCheckpoint !== null && batch.nextCheckpoint !== checkpoint) {
          await provider.acknowledge({ capture, batch });
          await this.report(capture, {
            outcome: 'idle',
            completeness: batch.completeness,
            metadata: batch.metadata,
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
        acknowledgement: { state: 'acknowledged', acknowledgerServiceType: provider.acknowledgerServiceType },
      });
      if (batch.capturedChangeCount < this.settings.batchSize) break;
    }
    if (captured === 0 && !idleReported)
      await this.report(capture, { outcome: 'idle', completeness, metadata });
    return {
      cdcCaptureId: capture.id,
      outcome: captured === 0 ? ('idle' as const) : ('captured' as const),
      capturedChangeCount: captured,
      producedMessageCount: produced,
    };
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

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 400);
}
