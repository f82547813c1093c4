import { hostname } from 'node:os';
import {
  CoreError,
  defineExtensionKey,
  type CdcCaptureDescriptor,
  type EngineBuilder,
  type JobHandle,
} from '@corekit/abstractions';
import { CapturePump, type PumpPassResult } from './capture-pump';
import { CaptureStateBook, type CaptureRecord } from './capture-state-book';
import { dataCatalogs } from './data-catalogs';
import { dataEventIdNames, dataEventIds } from './data-event-ids';
import { registerDataOperations } from './data-operations';
import {
  dataRuntimeOptionsSchema,
  type DataRuntimeOptions,
  type DataRuntimeOptionsInput,
} from './data-options';
import { DataRuntime } from './data-runtime';
import { dataSurfaces } from './data-surfaces';
import { declaredRuntime, resolveBindings } from './execution-binding';
import { cdcPollingProvidersKey, type CdcPollingProvider } from './polling-provider';
import { PostgresPollingProvider } from './postgres-polling-provider';
import { capturePumpId, capturePumpRuntime, registerCaptureFlow } from './shipped-runtimes';

/** What `addData` returns. */
export interface DataRegistration {
  readonly options: DataRuntimeOptions;
  /** The pump job (null when the pump is disabled); `trigger()` runs one pass now. */
  readonly pumpJob: JobHandle<PumpPassResult> | null;
  /** The pack's read model (states, runtimes, bindings), for companion packages and tests. */
  readonly runtime: DataRuntime;
}

export const dataRegistrationKey = defineExtensionKey<DataRegistration>(
  '@corekit/data/registration',
  'the data pack registration: bound options, pump job and read model',
);

/** Test and host seams that are not configuration. */
export interface DataRuntimeHooks {
  /** Epoch milliseconds; default Date.now (tests pass a manual clock to move leases). */
  readonly now?: () => number;
  /** Reporter id of this process's pump. Default `data-cdc-capture-pump@<hostname>`. */
  readonly pumpReporterId?: string;
}

/**
 * Registers the data pack (section `Engine:Data`): execution bindings for every capture of
 * `/engine/cdc-captures`, the runtime-state and runtime catalogs with their narrowings, reporter coordination
 * (leases in the engine store), the external report route, the shared polling pump with its PostgreSQL
 * provider, technology surfaces, counters and event ids 3200-3219. Calling it twice is refused.
 */
export function addData(
  builder: EngineBuilder,
  options?: DataRuntimeOptionsInput,
  hooks: DataRuntimeHooks = {},
): DataRegistration {
  if (builder.hasRegistration('@corekit/data')) {
    throw new CoreError('DATA_ALREADY_REGISTERED', 'addData was called twice on one builder; call it once.');
  }
  builder.markRegistration('@corekit/data');
  const settings = builder.configuration.bind('Engine:Data', dataRuntimeOptionsSchema, options);
  const now = hooks.now ?? Date.now;
  builder.addEventIds({ component: '@corekit/data', ranges: [[3200, 3219]], names: dataEventIdNames });

  const pumpSettings = settings.CapturePump;
  const providers = new Map<string, CdcPollingProvider>();
  const providerNames = ['postgresql'];
  const runtimes = [
    ...(pumpSettings.Enabled ? [capturePumpRuntime(settings, providerNames)] : []),
    ...settings.CdcExecutionRuntimes.map(declaredRuntime),
  ];
  const book = new CaptureStateBook(
    builder.openStore<CaptureRecord>('data-cdc-capture-states', {
      maxEntries: 10_000,
      description:
        'CDC capture runtime states: checkpoints, acknowledgement, reporter leases and coordination',
    }),
    now,
  );
  const runtime = new DataRuntime(runtimes, book, now, settings.StaleAfterSeconds);
  for (const catalog of dataCatalogs(runtime)) builder.addCatalog(catalog);
  registerDataOperations(builder, runtime, settings);

  const counters = {
    capturedChanges: builder.meter.counter(
      'corekit.data.cdc.captured_changes',
      'CDC changes read by the capture pump',
      '{change}',
    ),
    producedMessages: builder.meter.counter(
      'corekit.data.cdc.produced_messages',
      'Outbox messages staged by the capture pump',
      '{message}',
    ),
    acknowledgementFailures: builder.meter.counter(
      'corekit.data.cdc.acknowledgement_failures',
      'Staged CDC batches whose acknowledgement failed',
      '{batch}',
    ),
  };

  let pumpJob: JobHandle<PumpPassResult> | null = null;
  let pump: CapturePump | null = null;
  let pumpRunning = false;
  let currentPass: Promise<PumpPassResult> | null = null;
  const lastOutcome = new Map<string, string>();
  if (pumpSettings.Enabled) {
    registerCaptureFlow(builder);
    builder.addHostedService({
      id: capturePumpId,
      start: () => {
        pumpRunning = true;
        builder.logger.log({
          level: 'info',
          eventId: dataEventIds.pumpStarted,
          category: 'data',
          message: `CDC capture pump started (reporter ${reporterId})`,
        });
      },
      stop: () => {
        pumpRunning = false;
        builder.logger.log({
          level: 'info',
          eventId: dataEventIds.pumpStopped,
          category: 'data',
          message: 'CDC capture pump stopped',
        });
      },
    });
    pumpJob = builder.addJob<PumpPassResult>({
      id: capturePumpId,
      displayName: 'Shared CDC capture pump pass',
      intervalMs: pumpSettings.PollIntervalMilliseconds,
      runOnStartup: true,
      owner: '@corekit/data',
      run: async (context) => {
        if (!pump || !pumpRunning) return { captures: [] };
        currentPass = pump.pass(runtime.ownedBy(capturePumpId), context.signal);
        const result = await currentPass.finally(() => {
          currentPass = null;
        });
        for (const item of result.captures) noteTransition(item.cdcCaptureId, item.outcome, item.failureKind);
        return result;
      },
    });
  }
  const reporterId = hooks.pumpReporterId ?? `${capturePumpId}@${hostname()}`;

  function noteTransition(captureId: string, outcome: string, failureKind?: string): void {
    const previous = lastOutcome.get(captureId);
    lastOutcome.set(captureId, outcome);
    if (
      previous === outcome ||
      (outcome === 'idle' && previous === 'captured') ||
      (outcome === 'captured' && previous === 'idle')
    )
      return;
    if (outcome === 'failed' || previous === 'failed' || previous === undefined) {
      const state = runtime.book.record(captureId);
      builder.story.record({
        kind: 'data.cdc-capture',
        subjectId: captureId,
        transition: outcome === 'failed' ? `failed:${failureKind ?? 'provider'}` : outcome,
        message:
          outcome === 'failed'
            ? `CDC capture ${captureId} failed (${failureKind}): ${state.error ?? ''}`.slice(0, 300)
            : `CDC capture ${captureId} ${outcome} (checkpoint ${state.acknowledgement.durableCheckpoint ?? 'none'})`,
        details: { failureKind: failureKind ?? null, acknowledgement: state.acknowledgement.state },
      });
      builder.events.publish({
        type: 'data.cdc-capture-state',
        subjectId: captureId,
        data: { outcome, failureKind: failureKind ?? null },
      });
    }
  }

  builder.addTechnologySurfaces(() =>
    dataSurfaces(runtime, new Map(pumpJob ? [[capturePumpId, pumpJob as JobHandle<unknown>]] : []), [
      ...providers.keys(),
    ]),
  );

  builder.addLifecycleHooks({
    id: 'data',
    build(context) {
      const captures = context.entries('cdc-captures') as CdcCaptureDescriptor[];
      const resolution = resolveBindings(captures, runtimes);
      runtime.bind(captures, resolution.bindings);
      return resolution.problems;
    },
    async started(context) {
      try {
        await book.load();
      } catch (error) {
        builder.logger.log({
          level: 'error',
          eventId: dataEventIds.stateLoadFailed,
          category: 'data',
          message: `CDC capture states could not be loaded: ${(error as Error).message}`,
        });
      }
      if (pumpSettings.Enabled) {
        for (const provider of context.resolve(cdcPollingProvidersKey) ?? [])
          providers.set(provider.provider, provider);
        if (!providers.has('postgresql') && pumpSettings.PostgreSqlConnectionString) {
          providers.set(
            'postgresql',
            new PostgresPollingProvider({
              connectionString: pumpSettings.PostgreSqlConnectionString,
              outboxTable: pumpSettings.PostgreSqlOutboxTable,
              timeoutMilliseconds: pumpSettings.PostgreSqlTimeoutMilliseconds,
            }),
          );
        }
        pump = new CapturePump(
          runtime.runtime(capturePumpId)!,
          book,
          providers,
          {
            reporterId,
            batchSize: pumpSettings.BatchSize,
            maxBatchesPerPass: pumpSettings.MaxBatchesPerPass,
          },
          counters,
          {
            stepFailed: (capture, step, failureKind, message) =>
              builder.logger.log({
                level: 'warn',
                eventId:
                  failureKind === 'acknowledgement'
                    ? dataEventIds.acknowledgementFailed
                    : failureKind === 'source'
                      ? dataEventIds.sourceUnavailable
                      : failureKind === 'provider'
                        ? dataEventIds.providerUnavailable
                        : dataEventIds.captureFailed,
                category: 'data',
                message: `CDC capture ${capture.id} failed at ${step} (${failureKind}): ${message}`.slice(
                  0,
                  500,
                ),
              }),
          },
          now,
        );
      }
      const owned = runtime.ownedBy(capturePumpId).length;
      builder.logger.log({
        level: 'info',
        eventId: dataEventIds.registered,
        category: 'data',
        message: `Data pack started: ${runtime.allCaptures().length} capture(s), ${runtimes.length} runtime(s), ${owned} capture(s) on the shared pump`,
      });
      builder.story.record({
        kind: 'data.cdc-bindings',
        subjectId: null,
        transition: 'resolved',
        message: `CDC bindings: ${runtime.allCaptures().length} capture(s) across ${runtimes.length} runtime(s)`,
        details: Object.fromEntries(
          runtime
            .allCaptures()
            .map((capture) => [capture.id, runtime.bindingOf(capture.id).effectiveExecutionRuntimeId]),
        ),
      });
    },
    async stopping() {
      pumpRunning = false;
      await currentPass?.catch(() => undefined);
      for (const provider of providers.values()) {
        try {
          await provider.close?.();
        } catch {
          builder.logger.log({
            level: 'warn',
            eventId: dataEventIds.providerClosed,
            category: 'data',
            message: `Polling provider ${provider.provider} did not close cleanly`,
          });
        }
      }
    },
  });

  const registration: DataRegistration = { options: settings, pumpJob, runtime };
  builder.provide(dataRegistrationKey, registration);
  return registration;
}
