import path from 'node:path';
import type { EngineBuilder, KeyedStore, LifecycleHooks } from '@corekit/abstractions';
import { DeliveryDispatcher, type DeliveryRunRecord } from './delivery-dispatcher';
import { deliveryEventIds } from './delivery-event-ids';
import type { DeliveryOptions } from './delivery-options';
import { deliveryStoreNames, tenantGovernanceDeliveryRegistrationKey } from './delivery-registration-names';
import { DeliveryStatusBook } from './delivery-status-book';
import type { DeliveryObservation, InvitationDeliveryStatusRecord } from './delivery-status-types';
import type { DomainProofChallenge } from './domain-verification-types';
import { DomainVerifier, type DomainVerifierExtensions } from './domain-verifier';
import { FileOrSharedStore } from './file-or-shared-store';
import type { GovernanceContext } from './governance-context';
import { governanceSectionPath } from './governance-options';
import { RetryQueue, type RetryQueueEntry } from './retry-queue';
import { RetryRunner, type RetryPassResult } from './retry-runner';
import { SenderRegistry } from './sender-registry';
import type { TenantGovernance } from './tenant-governance';

/** The stores of the delivery registration. */
export interface DeliveryStores {
  /** The retry queue: the local file of `InvitationDeliveryRetryQueueFilePath` only while the provider is not shared. */
  readonly queue: FileOrSharedStore<RetryQueueEntry>;
  /** The observations: the local file of `InvitationDeliveryObservationStoreFilePath` likewise. */
  readonly observations: FileOrSharedStore<DeliveryObservation>;
  /** The reconciled statuses, in a `-statuses.json` file beside the observation file when it is used. */
  readonly statuses: FileOrSharedStore<InvitationDeliveryStatusRecord>;
  readonly runs: KeyedStore<DeliveryRunRecord>;
  readonly challenges: KeyedStore<DomainProofChallenge>;
}

/** Opens the delivery stores at registration (which of a file or the provider holds them is chosen at first use). */
export function openDeliveryStores(
  builder: EngineBuilder,
  settings: DeliveryOptions,
  maxRecords: number,
  now: () => Date,
): DeliveryStores {
  const observationFile = settings.InvitationDeliveryObservationStoreFilePath;
  const statusFile =
    observationFile &&
    path.join(path.dirname(observationFile), `${path.basename(observationFile, '.json')}-statuses.json`);
  return {
    queue: new FileOrSharedStore(
      builder,
      deliveryStoreNames.retryQueue,
      settings.InvitationDeliveryRetryQueueFilePath,
      settings.InvitationDeliveryRetryMaxItems,
      now,
    ),
    observations: new FileOrSharedStore(
      builder,
      deliveryStoreNames.observations,
      observationFile,
      settings.InvitationDeliveryObservationHistoryLimit + 1,
      now,
    ),
    statuses: new FileOrSharedStore(builder, deliveryStoreNames.statuses, statusFile, maxRecords, now),
    runs: builder.openStore<DeliveryRunRecord>(deliveryStoreNames.runs, { maxEntries: maxRecords }),
    challenges: builder.openStore<DomainProofChallenge>(deliveryStoreNames.challenges, {
      maxEntries: maxRecords,
    }),
  };
}

/** The working parts of delivery (each also provided under its typed key). */
export interface DeliveryParts {
  readonly queue: RetryQueue;
  readonly status: DeliveryStatusBook;
  readonly senders: SenderRegistry;
  readonly dispatcher: DeliveryDispatcher;
  readonly retryRunner: RetryRunner;
  readonly domains: DomainVerifier;
}

/**
 * Builds the delivery parts on their stores. The surfaces' queue, observation and live-proof counts come from
 * read copies among the governance `SharedStateMirrors` (loaded at start, following a shared store's feed).
 */
export function createDeliveryParts(
  builder: EngineBuilder,
  inputs: {
    readonly settings: DeliveryOptions;
    readonly context: GovernanceContext;
    readonly governance: TenantGovernance;
    readonly stores: DeliveryStores;
    readonly now: () => Date;
    readonly extensions: DomainVerifierExtensions;
  },
): DeliveryParts {
  const { settings, context, governance, stores, now } = inputs;
  const queue = new RetryQueue(
    stores.queue,
    settings,
    now,
    builder.instanceId,
    () => stores.queue.posture().shared,
    context.sharedState.mirror(stores.queue),
  );
  const status = new DeliveryStatusBook(
    stores.observations,
    stores.statuses,
    governance,
    settings,
    builder.logger,
    now,
  );
  status.useObservationCopy(context.sharedState.mirror(stores.observations));
  const senders = new SenderRegistry();
  const dispatcher = new DeliveryDispatcher(senders, {
    governance,
    runs: stores.runs,
    queue,
    logger: builder.logger,
    counter: builder.meter.counter(
      'corekit.tenant_governance.delivery_outcomes',
      'invitation sender outcomes by outcome, sender, tenant and source',
    ),
    now,
    onOutcome: (record) => status.recordRun(record),
  });
  const retryRunner = new RetryRunner(settings, queue, dispatcher, builder.logger, now);
  const domains = new DomainVerifier(
    context,
    settings.DomainVerification,
    stores.challenges,
    builder.logger,
    now,
    inputs.extensions,
  );
  return { queue, status, senders, dispatcher, retryRunner, domains };
}

/**
 * The jobs of delivery: the retry runner when the queue is enabled (on an interval only with background
 * scheduling; otherwise run on demand), and domain proof polling when enabled.
 */
export function addDeliveryJobs(
  builder: EngineBuilder,
  settings: DeliveryOptions,
  parts: DeliveryParts,
): void {
  const { retryRunner, domains } = parts;
  if (settings.EnableInvitationDeliveryRetryQueue) {
    const background = settings.EnableInvitationDeliveryRetryBackgroundScheduling;
    retryRunner.job = builder.addJob<RetryPassResult>({
      id: 'tenant-governance.invitation-delivery-retry',
      displayName: 'Invitation delivery retry runner',
      owner: tenantGovernanceDeliveryRegistrationKey,
      ...(background
        ? {
            intervalMs: settings.InvitationDeliveryRetryBackgroundIntervalSeconds * 1000,
            runOnStartup: settings.InvitationDeliveryRetryBackgroundRunOnStartup,
          }
        : {}),
      run: (run) => retryRunner.runJob(run.trigger),
    });
  }
  if (settings.DomainVerification.EnableBackgroundPolling) {
    domains.job = builder.addJob({
      id: 'tenant-governance.domain-proof-polling',
      displayName: 'Domain ownership proof polling',
      owner: tenantGovernanceDeliveryRegistrationKey,
      intervalMs: settings.DomainVerification.BackgroundPollingIntervalSeconds * 1000,
      runOnStartup: settings.DomainVerification.BackgroundPollingRunOnStartup,
      run: () => domains.pollPass(),
    });
  }
}

/**
 * The `started` hook of delivery: logs the loaded queue (4552 `retryQueueLoaded`) and warns about a
 * configured queue or observation file the shared provider makes unused. The governance registration's
 * `started` hook (earlier) loaded the queue, observation and challenge copies.
 */
export function deliveryLifecycleHooks(
  builder: EngineBuilder,
  stores: DeliveryStores,
  queue: RetryQueue,
): LifecycleHooks {
  return {
    id: 'tenant-governance-delivery',
    started: async () => {
      const queuePosture = stores.queue.posture();
      builder.logger.log({
        level: 'info',
        eventId: deliveryEventIds.retryQueueLoaded,
        category: 'tenant-governance.delivery',
        message: `Invitation delivery retry queue loaded: ${queue.count} item(s) (${queuePosture.kind}, ${queuePosture.scope})`,
        count: queue.count,
      });
      for (const [key, store] of [
        ['InvitationDeliveryRetryQueueFilePath', stores.queue],
        ['InvitationDeliveryObservationStoreFilePath', stores.observations],
      ] as const) {
        if (!store.fileIgnored) continue;
        builder.logger.log({
          level: 'warn',
          eventId: deliveryEventIds.retryQueueLoaded,
          category: 'tenant-governance.delivery',
          message: `${governanceSectionPath}:${key} is not used: the store provider (${queuePosture.kind}) is shared, so the records are kept on it for every replica (a per-replica file would split them); remove the key`,
          key: `${governanceSectionPath}:${key}`,
        });
      }
    },
  };
}
