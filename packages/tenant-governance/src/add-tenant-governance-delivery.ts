import path from 'node:path';
import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import { governanceContextKey, tenantGovernanceRegistrationKey } from './add-tenant-governance';
import { DeliveryDispatcher, type DeliveryRunRecord } from './delivery-dispatcher';
import { SenderRegistry } from './sender-registry';
import { deliveryEventIdNames, deliveryEventIds } from './delivery-event-ids';
import { deliveryOptionsSchema, type DeliveryOptions, type DeliveryOptionsInput } from './delivery-options';
import { deliveryPosture } from './delivery-posture';
import {
  governanceDeliveryPostureKey,
  invitationDeliveryDispatcherKey,
  invitationSenderRegistryKey,
} from './delivery-seams';
import { DeliveryStatusBook } from './delivery-status-book';
import {
  invitationDeliveryStatusKey,
  type DeliveryObservation,
  type InvitationDeliveryStatusRecord,
} from './delivery-status-types';
import { domainVerificationKey, type DomainProofChallenge } from './domain-verification-types';
import { DomainVerifier, type DomainVerifierExtensions } from './domain-verifier';
import { governanceSectionPath } from './governance-options';
import { FileOrSharedStore } from './file-or-shared-store';
import type { RetryQueueEntry } from './retry-queue';
import { RetryQueue } from './retry-queue';
import { invitationDeliveryRetryRunnerKey, RetryRunner, type RetryPassResult } from './retry-runner';
import { tenantGovernanceKey } from './tenant-governance';

/** Registration key of `addTenantGovernanceDelivery`. */
export const tenantGovernanceDeliveryRegistrationKey = '@corekit/tenant-governance/delivery';

/** Names of the stores the delivery registration opens on the engine's store provider. */
export const deliveryStoreNames = {
  runs: 'tenant-governance-delivery-runs',
  retryQueue: 'tenant-governance-retry-queue',
  observations: 'tenant-governance-delivery-observations',
  statuses: 'tenant-governance-delivery-statuses',
  challenges: 'tenant-governance-domain-challenges',
} as const;

/** Code-only options: a clock for tests, and the TLS trust and address lookup of proof collection. */
export interface TenantGovernanceDeliveryExtensions extends DomainVerifierExtensions {
  readonly now?: () => Date;
}

/** What `addTenantGovernanceDelivery` answers (each part is also provided under its typed key). */
export interface TenantGovernanceDelivery {
  readonly senders: SenderRegistry;
  readonly dispatcher: DeliveryDispatcher;
  readonly retryRunner: RetryRunner;
  readonly status: DeliveryStatusBook;
  readonly domains: DomainVerifier;
  readonly settings: DeliveryOptions;
}

/**
 * Registers invitation delivery and domain-ownership verification on top of `addTenantGovernance`: the
 * sender registry, the dispatcher, the retry queue and runner (with its job), delivery-status
 * reconciliation with the observation store, domain verification with its polling job, the delivery
 * fields of the governance surfaces and event ids 4530-4549 and 4552-4557. Binds the delivery keys of
 * `Engine:MultiTenancy:Governance` (spec 2.4 and `DomainVerification`).
 */
export function addTenantGovernanceDelivery(
  builder: EngineBuilder,
  options?: DeliveryOptionsInput,
  extensions: TenantGovernanceDeliveryExtensions = {},
): TenantGovernanceDelivery {
  const governance = builder.resolve(tenantGovernanceKey);
  const context = builder.resolve(governanceContextKey);
  if (!governance || !context || !builder.hasRegistration(tenantGovernanceRegistrationKey)) {
    throw new CoreError(
      'GOVERNANCE_NOT_REGISTERED',
      'addTenantGovernanceDelivery needs addTenantGovernance first on the same builder',
    );
  }
  builder.claimRegistration({
    packageName: '@corekit/tenant-governance',
    entry: 'addTenantGovernanceDelivery',
    key: tenantGovernanceDeliveryRegistrationKey,
  });
  const settings = builder.configuration.bind(governanceSectionPath, deliveryOptionsSchema, options);
  const now = extensions.now ?? context.now;
  const maxRecords = context.settings.MaxRecordsPerStore;
  const observationFile = settings.InvitationDeliveryObservationStoreFilePath;
  const queueStore = new FileOrSharedStore<RetryQueueEntry>(
    builder,
    deliveryStoreNames.retryQueue,
    settings.InvitationDeliveryRetryQueueFilePath,
    settings.InvitationDeliveryRetryMaxItems,
    now,
  );
  const observationStore = new FileOrSharedStore<DeliveryObservation>(
    builder,
    deliveryStoreNames.observations,
    observationFile,
    settings.InvitationDeliveryObservationHistoryLimit + 1,
    now,
  );
  // The surfaces' queue, observation and live-proof counts come from read copies that follow a shared store.
  const queue = new RetryQueue(
    queueStore,
    settings,
    now,
    builder.instanceId,
    () => queueStore.posture().shared,
    context.sharedState.mirror(queueStore),
  );
  const status = new DeliveryStatusBook(
    observationStore,
    new FileOrSharedStore<InvitationDeliveryStatusRecord>(
      builder,
      deliveryStoreNames.statuses,
      observationFile &&
        path.join(path.dirname(observationFile), `${path.basename(observationFile, '.json')}-statuses.json`),
      maxRecords,
      now,
    ),
    governance,
    settings,
    builder.logger,
    now,
  );
  status.useObservationCopy(context.sharedState.mirror(observationStore));
  const senders = new SenderRegistry();
  const dispatcher = new DeliveryDispatcher(senders, {
    governance,
    runs: builder.openStore<DeliveryRunRecord>(deliveryStoreNames.runs, { maxEntries: maxRecords }),
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
  const challenges = builder.openStore<DomainProofChallenge>(deliveryStoreNames.challenges, {
    maxEntries: maxRecords,
  });
  const domains = new DomainVerifier(
    context,
    settings.DomainVerification,
    challenges,
    builder.logger,
    now,
    extensions,
  );
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

  builder.provide(invitationSenderRegistryKey, senders);
  builder.provide(invitationDeliveryDispatcherKey, dispatcher);
  builder.provide(invitationDeliveryRetryRunnerKey, retryRunner);
  builder.provide(invitationDeliveryStatusKey, status);
  builder.provide(domainVerificationKey, domains);
  builder.provide(
    governanceDeliveryPostureKey,
    deliveryPosture({
      settings,
      queueStore,
      observationStore,
      freshness: () => context.sharedState.freshness(),
      queue,
      retryRunner,
      dispatcher,
      senders,
      status,
      domains,
    }),
  );
  builder.addEventIds({
    component: 'Tenant governance',
    ranges: [
      [4530, 4549],
      [4552, 4557],
    ],
    names: deliveryEventIdNames,
  });
  builder.addLifecycleHooks({
    id: 'tenant-governance-delivery',
    // The governance registration's `started` hook (earlier) loaded the queue, observation and challenge copies.
    started: async () => {
      const queuePosture = queueStore.posture();
      builder.logger.log({
        level: 'info',
        eventId: deliveryEventIds.retryQueueLoaded,
        category: 'tenant-governance.delivery',
        message: `Invitation delivery retry queue loaded: ${queue.count} item(s) (${queuePosture.kind}, ${queuePosture.scope})`,
        count: queue.count,
      });
      for (const [key, store] of [
        ['InvitationDeliveryRetryQueueFilePath', queueStore],
        ['InvitationDeliveryObservationStoreFilePath', observationStore],
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
  });
  builder.logger.log({
    level: 'info',
    eventId: deliveryEventIds.deliveryRegistered,
    category: 'tenant-governance.delivery',
    message: `Invitation delivery registered (retry queue ${settings.EnableInvitationDeliveryRetryQueue ? 'enabled' : 'disabled'}, DNS TXT ${domains.dnsEnabled ? 'enabled' : 'disabled'})`,
  });
  return { senders, dispatcher, retryRunner, status, domains, settings };
}
