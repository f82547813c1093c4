import type { EngineBuilder, ExtensionResolver, JobHandle } from '@corekit/abstractions';
import { CapturePump, type PumpCounters, type PumpPassResult } from './capture-pump';
import type { CaptureStateBook } from './capture-state-book';
import { dataEventIds } from './data-event-ids';
import type { DataRuntime } from './data-runtime';
import type { CdcPollingProvider } from './polling-provider';
import { pumpObserver } from './pump-observer';

/** One shipped pump as the pack hosts it. */
export interface PumpSpecification {
  readonly id: string;
  /** How often a batch in flight renews the reporter lease; default a third of the lease. */
  readonly leaseRenewMs?: number;
  readonly displayName: string;
  readonly intervalMs: number;
  readonly batchSize: number;
  readonly maxBatchesPerPass: number;
  readonly failureBackoffMs: number;
  readonly maxFailureBackoffMs: number;
  readonly retentionAttentionBytes: number;
  readonly reporterId: string;
  /** The providers this pump runs, created when the engine starts (none: its captures fail truthfully). */
  createProviders(resolver: ExtensionResolver): readonly CdcPollingProvider[];
}

/**
 * Hosts one shipped pump: the runner (a hosted service with the hosted execution's id, so the engine starts
 * and stops it), the job that runs a pass per interval, the providers and their closing. A pass only runs
 * while the runner is started; stopping waits for the running pass before closing providers.
 */
export class PumpHost {
  readonly job: JobHandle<PumpPassResult>;
  readonly providers = new Map<string, CdcPollingProvider>();
  private pump: CapturePump | null = null;
  private running = false;
  private currentPass: Promise<PumpPassResult> | null = null;
  private readonly lastOutcome = new Map<string, string>();

  constructor(
    private readonly builder: EngineBuilder,
    private readonly specification: PumpSpecification,
    private readonly runtime: DataRuntime,
    private readonly book: CaptureStateBook,
    private readonly counters: PumpCounters,
    private readonly now: () => number,
  ) {
    builder.addHostedService({
      id: specification.id,
      start: () => {
        this.running = true;
        this.log(
          'info',
          dataEventIds.pumpStarted,
          `${specification.displayName} started (reporter ${specification.reporterId})`,
        );
      },
      stop: () => {
        this.running = false;
        this.log('info', dataEventIds.pumpStopped, `${specification.displayName} stopped`);
      },
    });
    this.job = builder.addJob<PumpPassResult>({
      id: specification.id,
      displayName: `${specification.displayName} pass`,
      intervalMs: specification.intervalMs,
      runOnStartup: true,
      owner: '@corekit/data',
      run: async (context) => {
        if (!this.pump || !this.running) return { captures: [] };
        this.currentPass = this.pump.pass(runtime.ownedBy(specification.id), context.signal);
        const result = await this.currentPass.finally(() => {
          this.currentPass = null;
        });
        for (const item of result.captures)
          this.noteTransition(item.cdcCaptureId, item.outcome, item.failureKind);
        return result;
      },
    });
  }

  /** Creates the providers and the pump (the `started` lifecycle hook). */
  start(resolver: ExtensionResolver): void {
    for (const provider of this.specification.createProviders(resolver)) {
      provider.useTelemetry?.({ meter: this.builder.meter, tracer: this.builder.tracer });
      this.providers.set(provider.provider, provider);
    }
    this.pump = new CapturePump(
      this.runtime.runtime(this.specification.id)!,
      this.book,
      this.providers,
      {
        reporterId: this.specification.reporterId,
        batchSize: this.specification.batchSize,
        maxBatchesPerPass: this.specification.maxBatchesPerPass,
        failureBackoffMs: this.specification.failureBackoffMs,
        maxFailureBackoffMs: this.specification.maxFailureBackoffMs,
        retentionAttentionBytes: this.specification.retentionAttentionBytes,
        ...(this.specification.leaseRenewMs === undefined
          ? {}
          : { leaseRenewMs: this.specification.leaseRenewMs }),
      },
      this.counters,
      pumpObserver(this.builder, this.specification.id),
      this.now,
    );
  }

  /** Waits for the running pass, then closes the providers (the `stopping` lifecycle hook). */
  async stop(): Promise<void> {
    this.running = false;
    await this.currentPass?.catch(() => undefined);
    for (const provider of this.providers.values()) {
      try {
        await provider.close?.();
      } catch {
        this.log(
          'warn',
          dataEventIds.providerClosed,
          `Polling provider ${provider.provider} did not close cleanly`,
        );
      }
    }
  }

  private log(level: 'info' | 'warn', eventId: number, message: string): void {
    this.builder.logger.log({ level, eventId, category: 'data', message: message.slice(0, 500) });
  }

  /** Story entries and runtime events on transitions into or out of failure (not on every pass). */
  private noteTransition(captureId: string, outcome: string, failureKind?: string): void {
    const previous = this.lastOutcome.get(captureId);
    this.lastOutcome.set(captureId, outcome);
    const quiet =
      outcome === previous || (previous !== 'failed' && previous !== undefined && outcome !== 'failed');
    if (quiet) return;
    const state = this.book.record(captureId);
    this.builder.story.record({
      kind: 'data.cdc-capture',
      subjectId: captureId,
      transition: outcome === 'failed' ? `failed:${failureKind ?? 'provider'}` : outcome,
      message:
        outcome === 'failed'
          ? `CDC capture ${captureId} failed (${failureKind}): ${state.error ?? ''}`.slice(0, 300)
          : `CDC capture ${captureId} ${outcome} on ${this.specification.id} (checkpoint ${state.acknowledgement.durableCheckpoint ?? 'none'})`.slice(
              0,
              300,
            ),
      details: {
        executionRuntimeId: this.specification.id,
        failureKind: failureKind ?? null,
        acknowledgement: state.acknowledgement.state,
      },
    });
    this.builder.events.publish({
      type: 'data.cdc-capture-state',
      subjectId: captureId,
      data: { outcome, failureKind: failureKind ?? null, executionRuntimeId: this.specification.id },
    });
  }
}
