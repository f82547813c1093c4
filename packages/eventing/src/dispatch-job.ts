import type { EngineBuilder, JobHandle } from '@corekit/abstractions';
import type { EventingOptions } from './eventing-options';
import type { EventingPackRuntime } from './eventing-pack-runtime';
import type { DispatchPassResult } from './outbox-dispatcher';

/**
 * The outbox lane's registrations: the dispatch job (a pass on startup, then every
 * `DispatchIntervalMilliseconds`) and, when `SourceModuleId` names the module that owns it, the outbox's entry
 * in the `outboxes` catalog. Null without the outbox lane.
 */
export function addDispatchJob(
  builder: EngineBuilder,
  outboxSettings: EventingOptions['Outbox'],
  runtime: Pick<EventingPackRuntime, 'dispatchPass'>,
): JobHandle<DispatchPassResult> | null {
  if (!outboxSettings.Enabled) return null;
  const job = builder.addJob<DispatchPassResult>({
    id: 'eventing.dispatch',
    displayName: `Outbox dispatch (${outboxSettings.OutboxId})`,
    intervalMs: outboxSettings.DispatchIntervalMilliseconds,
    runOnStartup: true,
    owner: '@corekit/eventing',
    run: (context) => runtime.dispatchPass(context.signal),
  });
  if (outboxSettings.SourceModuleId) {
    builder.addCatalogEntries('outboxes', null, [
      {
        id: outboxSettings.OutboxId,
        displayName: `Eventing outbox ${outboxSettings.OutboxId}`,
        description:
          'Publications staged by POST /engine/event-publications, sent by the eventing dispatch job.',
        sourceModuleId: outboxSettings.SourceModuleId,
        provider: 'eventing',
        mode: 'transactional-outbox',
        channelIds: [],
        tags: ['eventing'],
        metadata: { dispatchRuntimeId: outboxSettings.DispatchRuntimeId },
      },
    ]);
  }
  return job;
}
