import {
  storePostureOf,
  type BuildHookContext,
  type CdcCaptureDescriptor,
  type CdcExecutionBindings,
  type EngineBuilder,
  type JobHandle,
  type LifecycleHooks,
  type RuntimeHookContext,
} from '@corekit/abstractions';
import type { PumpPassResult } from './capture-pump';
import { CaptureStateBook, type CaptureRecord } from './capture-state-book';
import { dataEventIds } from './data-event-ids';
import type { DataRuntimeOptions } from './data-options';
import { DataRuntime } from './data-runtime';
import { dataSurfaces } from './data-surfaces';
import { declaredRuntime, resolveBindings, type RuntimeDeclaration } from './execution-binding';
import type { PumpHost } from './pump-host';
import { capturePumpRuntime, changeStreamPumpRuntime } from './shipped-runtimes';

/**
 * The data pack's state and lifecycle on one builder: the CDC execution runtimes (the shipped pumps' and those
 * the section declares), the capture-state book in the engine store, the read model (`DataRuntime`) and the
 * pump hosts; bindings resolved at build, states loaded and pumps started at start, both stopped at stop.
 */
export class DataPackRuntime {
  readonly runtimes: readonly RuntimeDeclaration[];
  readonly book: CaptureStateBook;
  /** The pack's read model (states, runtimes, bindings). */
  readonly runtime: DataRuntime;
  private pumpHosts: readonly PumpHost[] = [];

  constructor(
    private readonly builder: EngineBuilder,
    settings: DataRuntimeOptions,
    readonly now: () => number,
  ) {
    this.runtimes = [
      ...(settings.CapturePump.Enabled ? [capturePumpRuntime(settings, ['postgresql'])] : []),
      ...(settings.ChangeStreamPump.Enabled ? [changeStreamPumpRuntime(settings)] : []),
      ...settings.CdcExecutionRuntimes.map(declaredRuntime),
    ];
    this.book = new CaptureStateBook(
      builder.openStore<CaptureRecord>('data-cdc-capture-states', {
        maxEntries: 10_000,
        description:
          'CDC capture runtime states: checkpoints, acknowledgement, reporter leases and coordination',
      }),
      now,
      settings.SharedStateRefreshMilliseconds,
      (error) =>
        builder.logger.log({
          level: 'warn',
          eventId: dataEventIds.stateLoadFailed,
          category: 'data',
          message: `CDC capture states could not be read again; the surfaces keep the last copy: ${(error as Error).message}`,
        }),
    );
    this.runtime = new DataRuntime(this.runtimes, this.book, now, settings.StaleAfterSeconds);
  }

  /** The pumps this pack runs (set once they are registered). */
  usePumps(hosts: readonly PumpHost[]): void {
    this.pumpHosts = hosts;
  }

  /** The restarts the pump that runs `provider` offers after a gap; null when no pump runs it. */
  restartsOf(provider: string) {
    for (const host of this.pumpHosts) {
      const found = host.providers.get(provider);
      if (found) return found.restarts ?? ['accept-gap'];
    }
    return null;
  }

  /** A pump's pass job, null when that pump is disabled. */
  jobOf(id: string): JobHandle<PumpPassResult> | null {
    return (this.pumpHosts.find((host) => host.job.id === id)?.job ??
      null) as JobHandle<PumpPassResult> | null;
  }

  /** The technology surfaces of the pack, as they are now. */
  surfaces() {
    return dataSurfaces(
      this.runtime,
      new Map(this.pumpHosts.map((host) => [host.job.id, host.job as JobHandle<unknown>])),
      Object.fromEntries(this.pumpHosts.map((host) => [host.job.id, [...host.providers.keys()]])),
    );
  }

  /** Each capture's execution binding, for other packs (`cdcExecutionBindingsKey`). */
  executionBindings(): CdcExecutionBindings {
    return {
      bindingOf: (cdcCaptureId) => this.runtime.bindingOf(cdcCaptureId),
      effectiveRuntimeOf: (cdcCaptureId) => this.runtime.bindingOf(cdcCaptureId).effectiveExecutionRuntimeId,
    };
  }

  /** The pack's lifecycle hooks (`data`). */
  lifecycleHooks(): LifecycleHooks {
    return {
      id: 'data',
      build: (context) => this.bind(context),
      started: (context) => this.started(context),
      stopping: () => this.stopping(),
    };
  }

  private bind(context: BuildHookContext): readonly string[] {
    const captures = context.entries('cdc-captures') as CdcCaptureDescriptor[];
    const resolution = resolveBindings(captures, this.runtimes);
    this.runtime.bind(captures, resolution.bindings);
    return resolution.problems;
  }

  private async started(context: RuntimeHookContext): Promise<void> {
    const { builder, runtime } = this;
    try {
      await this.book.start(storePostureOf(builder.storeTraits()).scope);
    } catch (error) {
      builder.logger.log({
        level: 'error',
        eventId: dataEventIds.stateLoadFailed,
        category: 'data',
        message: `CDC capture states could not be loaded: ${(error as Error).message}`,
      });
    }
    for (const host of this.pumpHosts) host.start(context);
    const captures = runtime.allCaptures();
    builder.logger.log({
      level: 'info',
      eventId: dataEventIds.registered,
      category: 'data',
      message: `Data pack started: ${captures.length} capture(s), ${this.runtimes.length} runtime(s)`,
    });
    builder.story.record({
      kind: 'data.cdc-bindings',
      subjectId: null,
      transition: 'resolved',
      message: `CDC bindings: ${captures.length} capture(s) across ${this.runtimes.length} runtime(s)`,
      details: Object.fromEntries(
        captures.map((capture) => [capture.id, runtime.bindingOf(capture.id).effectiveExecutionRuntimeId]),
      ),
    });
  }

  private async stopping(): Promise<void> {
    this.book.stop();
    for (const host of this.pumpHosts) await host.stop();
  }
}
