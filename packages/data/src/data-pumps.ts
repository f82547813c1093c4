import { hostname } from 'node:os';
import type { EngineBuilder } from '@corekit/abstractions';
import type { PumpCounters } from './capture-pump';
import type { CaptureStateBook } from './capture-state-book';
import type { DataRuntimeOptions } from './data-options';
import type { DataRuntime } from './data-runtime';
import { MongoChangeStreamProvider } from './mongodb-change-stream-provider';
import { cdcPollingProvidersKey } from './polling-provider';
import { PostgresPollingProvider } from './postgres-polling-provider';
import { PumpHost, type PumpSpecification } from './pump-host';
import { capturePumpId, changeStreamPumpId, registerFlows, shippedFlows } from './shipped-runtimes';

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

/** The pack's CDC counters, shared by its pumps. */
export function dataCounters(builder: EngineBuilder): PumpCounters {
  return {
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
}

/** The pacing, reporting and lease fields both pumps take from their section and the hooks. */
function pumpPacing(
  id: string,
  pump: DataRuntimeOptions['CapturePump'] | DataRuntimeOptions['ChangeStreamPump'],
  settings: DataRuntimeOptions,
  hooks: DataRuntimeHooks,
) {
  return {
    intervalMs: pump.PollIntervalMilliseconds,
    batchSize: pump.BatchSize,
    maxBatchesPerPass: pump.MaxBatchesPerPass,
    failureBackoffMs: pump.FailureBackoffMilliseconds,
    maxFailureBackoffMs: pump.MaxFailureBackoffMilliseconds,
    retentionAttentionBytes: settings.RetentionAttentionBytes,
    reporterId: hooks.pumpReporterId ?? `${id}@${hostname()}`,
    ...(hooks.pumpLeaseRenewMilliseconds ? { leaseRenewMs: hooks.pumpLeaseRenewMilliseconds } : {}),
  };
}

/** The shared polling pump: the providers packages install (MongoDB aside), else PostgreSQL from the section. */
export function capturePumpSpecification(
  settings: DataRuntimeOptions,
  hooks: DataRuntimeHooks,
): PumpSpecification {
  const pump = settings.CapturePump;
  return {
    id: capturePumpId,
    displayName: 'Shared CDC capture pump',
    ...pumpPacing(capturePumpId, pump, settings, hooks),
    createProviders: (resolver) => {
      const extra = (resolver.resolve(cdcPollingProvidersKey) ?? []).filter(
        (item) => item.provider !== 'mongodb',
      );
      if (extra.some((item) => item.provider === 'postgresql') || !pump.PostgreSqlConnectionString)
        return extra;
      return [
        ...extra,
        new PostgresPollingProvider({
          connectionString: pump.PostgreSqlConnectionString,
          outboxTable: pump.PostgreSqlOutboxTable,
          timeoutMilliseconds: pump.PostgreSqlTimeoutMilliseconds,
          requireCompleteness: pump.RequireCompleteness,
        }),
      ];
    },
  };
}

/** The document-database change-stream pump: installed MongoDB providers, else one from the section. */
export function changeStreamPumpSpecification(
  settings: DataRuntimeOptions,
  hooks: DataRuntimeHooks,
): PumpSpecification {
  const pump = settings.ChangeStreamPump;
  return {
    id: changeStreamPumpId,
    displayName: 'Document-database change-stream capture pump',
    ...pumpPacing(changeStreamPumpId, pump, settings, hooks),
    createProviders: (resolver) => {
      const extra = (resolver.resolve(cdcPollingProvidersKey) ?? []).filter(
        (item) => item.provider === 'mongodb',
      );
      if (extra.length > 0 || !pump.ConnectionString) return extra;
      return [
        new MongoChangeStreamProvider({
          connectionString: pump.ConnectionString,
          defaultDatabase: pump.Database,
          outboxCollection: pump.OutboxCollection,
          timeoutMilliseconds: pump.TimeoutMilliseconds,
        }),
      ];
    },
  };
}

/**
 * Registers the enabled pumps (each a hosted service and its pass job) and their shipped flows; answers their
 * hosts, the capture pump first.
 */
export function addDataPumps(
  builder: EngineBuilder,
  settings: DataRuntimeOptions,
  hooks: DataRuntimeHooks,
  state: { readonly runtime: DataRuntime; readonly book: CaptureStateBook; readonly now: () => number },
): PumpHost[] {
  const counters = dataCounters(builder);
  const enabled = [
    ...(settings.CapturePump.Enabled ? [capturePumpSpecification(settings, hooks)] : []),
    ...(settings.ChangeStreamPump.Enabled ? [changeStreamPumpSpecification(settings, hooks)] : []),
  ];
  const hosts = enabled.map(
    (specification) => new PumpHost(builder, specification, state.runtime, state.book, counters, state.now),
  );
  registerFlows(
    builder,
    enabled.map((specification) => shippedFlows[specification.id]),
  );
  return hosts;
}
