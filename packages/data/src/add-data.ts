import { hostname } from 'node:os';
import {
  cdcExecutionBindingsKey,
  defineExtensionKey,
  storePostureOf,
  type CdcCaptureDescriptor,
  type EngineBuilder,
  type JobHandle,
} from '@corekit/abstractions';
import type { PumpPassResult } from './capture-pump';
import { registerCaptureGapOperations } from './capture-gap-operations';
import { CaptureStateBook, type CaptureRecord } from './capture-state-book';
import { dataOperatorViews } from './data-operator-views';
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
import { MongoChangeStreamProvider } from './mongodb-change-stream-provider';
import { cdcPollingProvidersKey } from './polling-provider';
import { PostgresPollingProvider } from './postgres-polling-provider';
import { PumpHost } from './pump-host';
import {
  capturePumpId,
  capturePumpRuntime,
  changeStreamPumpId,
  changeStreamPumpRuntime,
  registerFlows,
  shippedFlows,
} from './shipped-runtimes';

/** What `addData` returns. */
export interface DataRegistration {
  readonly options: DataRuntimeOptions;
  /** The pump job (null when the pump is disabled); `trigger()` runs one pass now. */
  readonly pumpJob: JobHandle<PumpPassResult> | null;
  /** The change-stream pump job (null when disabled). */
  readonly changeStreamJob: JobHandle<PumpPassResult> | null;
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
  /** Reporter id of this process's pumps. Default `<pump id>@<hostname>`. */
  readonly pumpReporterId?: string;
  /**
   * How often a pump renews its reporter lease while a batch is in flight, in milliseconds. Default a third of
   * the runtime's `reporterLeaseSeconds` (tests pass less, to see a renewal without waiting).
   */
  readonly pumpLeaseRenewMilliseconds?: number;
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
  builder.claimRegistration({ packageName: '@corekit/data', entry: 'addData' });
  builder.declarePack({ packageName: '@corekit/data', specificationVersion: 1 });
  const settings = builder.configuration.bind('Engine:Data', dataRuntimeOptionsSchema, options);
  const now = hooks.now ?? Date.now;
  builder.addEventIds({
    component: '@corekit/data',
    ranges: [
      [3190, 3199],
      [3200, 3219],
    ],
    names: dataEventIdNames,
  });

  const pumpSettings = settings.CapturePump;
  const streamSettings = settings.ChangeStreamPump;
  const runtimes = [
    ...(pumpSettings.Enabled ? [capturePumpRuntime(settings, ['postgresql'])] : []),
    ...(streamSettings.Enabled ? [changeStreamPumpRuntime(settings)] : []),
    ...settings.CdcExecutionRuntimes.map(declaredRuntime),
  ];
  const book = new CaptureStateBook(
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
  const runtime = new DataRuntime(runtimes, book, now, settings.StaleAfterSeconds);
  for (const catalog of dataCatalogs(runtime)) builder.addCatalog(catalog);
  for (const view of dataOperatorViews(
    runtime,
    settings.LagAttentionSeconds,
    settings.RetentionAttentionBytes,
  ))
    builder.addOperatorView(view);
  registerDataOperations(builder, runtime, settings);
  const pumpHosts: PumpHost[] = [];
  registerCaptureGapOperations(builder, runtime, (provider) => {
    for (const host of pumpHosts) {
      const found = host.providers.get(provider);
      if (found) return found.restarts ?? ['accept-gap'];
    }
    return null;
  });

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
    retainedBytes: builder.meter.histogram(
      'corekit.data.cdc.source_retained_bytes',
      'What a CDC source holds back for a capture (a replication slot: WAL not yet confirmed), per pass',
      'By',
    ),
  };

  const flows = [];
  if (pumpSettings.Enabled) {
    flows.push(shippedFlows[capturePumpId]);
    pumpHosts.push(
      new PumpHost(
        builder,
        {
          id: capturePumpId,
          displayName: 'Shared CDC capture pump',
          intervalMs: pumpSettings.PollIntervalMilliseconds,
          batchSize: pumpSettings.BatchSize,
          maxBatchesPerPass: pumpSettings.MaxBatchesPerPass,
          failureBackoffMs: pumpSettings.FailureBackoffMilliseconds,
          maxFailureBackoffMs: pumpSettings.MaxFailureBackoffMilliseconds,
          retentionAttentionBytes: settings.RetentionAttentionBytes,
          reporterId: hooks.pumpReporterId ?? `${capturePumpId}@${hostname()}`,
          ...(hooks.pumpLeaseRenewMilliseconds ? { leaseRenewMs: hooks.pumpLeaseRenewMilliseconds } : {}),
          createProviders: (resolver) => {
            const extra = (resolver.resolve(cdcPollingProvidersKey) ?? []).filter(
              (item) => item.provider !== 'mongodb',
            );
            if (
              extra.some((item) => item.provider === 'postgresql') ||
              !pumpSettings.PostgreSqlConnectionString
            )
              return extra;
            return [
              ...extra,
              new PostgresPollingProvider({
                connectionString: pumpSettings.PostgreSqlConnectionString,
                outboxTable: pumpSettings.PostgreSqlOutboxTable,
                timeoutMilliseconds: pumpSettings.PostgreSqlTimeoutMilliseconds,
                requireCompleteness: pumpSettings.RequireCompleteness,
              }),
            ];
          },
        },
        runtime,
        book,
        counters,
        now,
      ),
    );
  }
  if (streamSettings.Enabled) {
    flows.push(shippedFlows[changeStreamPumpId]);
    pumpHosts.push(
      new PumpHost(
        builder,
        {
          id: changeStreamPumpId,
          displayName: 'Document-database change-stream capture pump',
          intervalMs: streamSettings.PollIntervalMilliseconds,
          batchSize: streamSettings.BatchSize,
          maxBatchesPerPass: streamSettings.MaxBatchesPerPass,
          failureBackoffMs: streamSettings.FailureBackoffMilliseconds,
          maxFailureBackoffMs: streamSettings.MaxFailureBackoffMilliseconds,
          retentionAttentionBytes: settings.RetentionAttentionBytes,
          reporterId: hooks.pumpReporterId ?? `${changeStreamPumpId}@${hostname()}`,
          ...(hooks.pumpLeaseRenewMilliseconds ? { leaseRenewMs: hooks.pumpLeaseRenewMilliseconds } : {}),
          createProviders: (resolver) => {
            const extra = (resolver.resolve(cdcPollingProvidersKey) ?? []).filter(
              (item) => item.provider === 'mongodb',
            );
            if (extra.length > 0 || !streamSettings.ConnectionString) return extra;
            return [
              new MongoChangeStreamProvider({
                connectionString: streamSettings.ConnectionString,
                defaultDatabase: streamSettings.Database,
                outboxCollection: streamSettings.OutboxCollection,
                timeoutMilliseconds: streamSettings.TimeoutMilliseconds,
              }),
            ];
          },
        },
        runtime,
        book,
        counters,
        now,
      ),
    );
  }
  registerFlows(builder, flows);

  builder.addTechnologySurfaces(() =>
    dataSurfaces(
      runtime,
      new Map(pumpHosts.map((host) => [host.job.id, host.job as JobHandle<unknown>])),
      Object.fromEntries(pumpHosts.map((host) => [host.job.id, [...host.providers.keys()]])),
    ),
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
        await book.start(storePostureOf(builder.storeTraits()).scope);
      } catch (error) {
        builder.logger.log({
          level: 'error',
          eventId: dataEventIds.stateLoadFailed,
          category: 'data',
          message: `CDC capture states could not be loaded: ${(error as Error).message}`,
        });
      }
      for (const host of pumpHosts) host.start(context);
      builder.logger.log({
        level: 'info',
        eventId: dataEventIds.registered,
        category: 'data',
        message: `Data pack started: ${runtime.allCaptures().length} capture(s), ${runtimes.length} runtime(s)`,
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
      book.stop();
      for (const host of pumpHosts) await host.stop();
    },
  });

  const jobOf = (id: string) =>
    (pumpHosts.find((host) => host.job.id === id)?.job ?? null) as JobHandle<PumpPassResult> | null;
  const pumpJob = jobOf(capturePumpId);
  const changeStreamJob = jobOf(changeStreamPumpId);
  builder.provide(cdcExecutionBindingsKey, {
    bindingOf: (cdcCaptureId) => runtime.bindingOf(cdcCaptureId),
    effectiveRuntimeOf: (cdcCaptureId) => runtime.bindingOf(cdcCaptureId).effectiveExecutionRuntimeId,
  });
  const registration: DataRegistration = { options: settings, pumpJob, changeStreamJob, runtime };
  builder.provide(dataRegistrationKey, registration);
  return registration;
}
