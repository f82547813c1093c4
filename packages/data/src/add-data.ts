import {
  cdcExecutionBindingsKey,
  defineExtensionKey,
  type EngineBuilder,
  type JobHandle,
} from '@corekit/abstractions';
import type { PumpPassResult } from './capture-pump';
import { registerCaptureGapOperations } from './capture-gap-operations';
import { dataCatalogs } from './data-catalogs';
import { dataEventIdNames } from './data-event-ids';
import { registerDataOperations } from './data-operations';
import {
  dataRuntimeOptionsSchema,
  type DataRuntimeOptions,
  type DataRuntimeOptionsInput,
} from './data-options';
import { dataOperatorViews } from './data-operator-views';
import { DataPackRuntime } from './data-pack-runtime';
import { addDataPumps, type DataRuntimeHooks } from './data-pumps';
import type { DataRuntime } from './data-runtime';
import { capturePumpId, changeStreamPumpId } from './shipped-runtimes';

export type { DataRuntimeHooks } from './data-pumps';

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

  const pack = new DataPackRuntime(builder, settings, now);
  const runtime = pack.runtime;
  for (const catalog of dataCatalogs(runtime)) builder.addCatalog(catalog);
  for (const view of dataOperatorViews(
    runtime,
    settings.LagAttentionSeconds,
    settings.RetentionAttentionBytes,
  ))
    builder.addOperatorView(view);
  registerDataOperations(builder, runtime, settings);
  registerCaptureGapOperations(builder, runtime, (provider) => pack.restartsOf(provider));
  pack.usePumps(addDataPumps(builder, settings, hooks, pack));
  builder.addTechnologySurfaces(() => pack.surfaces());
  builder.addLifecycleHooks(pack.lifecycleHooks());

  const pumpJob = pack.jobOf(capturePumpId);
  const changeStreamJob = pack.jobOf(changeStreamPumpId);
  builder.provide(cdcExecutionBindingsKey, pack.executionBindings());
  const registration: DataRegistration = { options: settings, pumpJob, changeStreamJob, runtime };
  builder.provide(dataRegistrationKey, registration);
  return registration;
}
