import { storePostureOf, type StorePosture } from '@corekit/abstractions';
import type { DeliveryDispatcher } from './delivery-dispatcher';
import type { SenderRegistry } from './sender-registry';
import type { DeliveryOptions } from './delivery-options';
import type { GovernanceDeliveryPosture } from './delivery-seams';
import type { DeliveryStatusBook } from './delivery-status-book';
import type { DomainVerifier } from './domain-verifier';
import type { RetryQueue } from './retry-queue';
import type { RetryRunner } from './retry-runner';

interface PostureParts {
  readonly settings: DeliveryOptions;
  /** The engine store provider's posture, read when the surface is read. */
  readonly store: () => StorePosture;
  readonly queue: RetryQueue;
  readonly retryRunner: RetryRunner;
  readonly dispatcher: DeliveryDispatcher;
  readonly senders: SenderRegistry;
  readonly status: DeliveryStatusBook;
  readonly domains: DomainVerifier;
}

/** A store with its own file path (`...FilePath`) is a local file whatever the engine's provider. */
const localFile = storePostureOf({ kind: 'local-file', durable: true, shared: false });
const postureOf = (file: string | undefined, store: () => StorePosture) => (file ? localFile : store());

/**
 * The delivery and domain-verification fields of the `tenant-invitations` and `tenant-domain-ownership`
 * surfaces: settings, counts (since this process started unless said otherwise), states and sender ids.
 * Never an invitation, invitee, recipient, domain-name, token or provider-message identifier.
 */
export function deliveryPosture(parts: PostureParts): GovernanceDeliveryPosture {
  const { settings, store, queue, retryRunner, dispatcher, senders, status, domains } = parts;
  const queueFile = settings.InvitationDeliveryRetryQueueFilePath;
  const observationFile = settings.InvitationDeliveryObservationStoreFilePath;
  return {
    invitationFields: () => {
      const enabled = settings.EnableInvitationDeliveryRetryQueue;
      const coordination = settings.EnableInvitationDeliveryRetryExecutionCoordination;
      const execution = retryRunner.execution;
      const queueStore = postureOf(queueFile, store);
      const observationStore = postureOf(observationFile, store);
      return {
        retryQueueEnabled: enabled,
        retryQueueOwnership: 'companion-owned',
        retryQueueKind: enabled ? queueStore.kind : null,
        retryQueueDurability: enabled ? queueStore.durability : null,
        retryQueueScope: enabled ? queueStore.scope : null,
        retryQueueCount: queue.count,
        retryQueuedTotal: queue.counts.queuedTotal,
        retryCompletedTotal: queue.counts.completedTotal,
        retryExhaustedTotal: queue.counts.exhaustedTotal,
        retryAbandonedTotal: queue.counts.abandonedTotal,
        retryQueueFullTotal: queue.counts.fullTotal,
        latestRetryOutcome: queue.counts.latestOutcome,
        retryMaxAttempts: settings.InvitationDeliveryRetryMaxAttempts,
        retryDelaySeconds: settings.InvitationDeliveryRetryDelaySeconds,
        retryMaxItems: settings.InvitationDeliveryRetryMaxItems,
        retryExecutionCoordinationEnabled: coordination,
        retryExecutionCoordinationOwnership: 'companion-owned',
        retryExecutionCoordinationScope: coordination ? 'process-local' : null,
        retryExecutionCoordinationMode: coordination ? 'skip-overlapping-pass' : null,
        retryExecutionInProgress: execution.inProgress,
        retryExecutionRunCount: execution.runCount,
        retryExecutionAlreadyRunningCount: execution.alreadyRunningCount,
        latestRetryExecutionOutcome: execution.latestOutcome,
        latestRetryExecutionStartedAtUtc: execution.latestStartedAtUtc,
        latestRetryExecutionCompletedAtUtc: execution.latestCompletedAtUtc,
        retryBackgroundSchedulingEnabled:
          enabled && settings.EnableInvitationDeliveryRetryBackgroundScheduling,
        retryBackgroundIntervalSeconds: settings.InvitationDeliveryRetryBackgroundIntervalSeconds,
        retryBackgroundRunOnStartup: settings.InvitationDeliveryRetryBackgroundRunOnStartup,
        retryBackgroundSource: settings.InvitationDeliveryRetryBackgroundSource,
        statusReconciliationOwnership: 'companion-owned',
        observationStoreKind: observationStore.kind,
        observationStoreDurability: observationStore.durability,
        observationStoreScope: observationStore.scope,
        observationHistoryLimit: settings.InvitationDeliveryObservationHistoryLimit,
        observationCount: status.counts.observationCount,
        latestObservation: status.counts.latestObservation,
        externalDeliveryStatusOwnership: 'provider-managed',
        statusReportedCount: status.counts.statusReportedCount,
        latestStatus: status.counts.latestStatus,
        latestObservedAtUtc: status.counts.latestObservedAtUtc,
        attentionCategories: Object.keys(status.categories),
        senderCount: senders.list().length,
        senderIds: senders.list().map((sender) => sender.id),
        senderOwnership: 'sender-packages',
        externalDeliveryOwnership: 'application-managed',
        deliveryRunCount: dispatcher.counts.runCount,
        deliveryRunOutcomeCounts: { ...dispatcher.counts.outcomes },
        latestDeliveryOutcome: dispatcher.counts.latestOutcome,
        perTenantRetryCounts: { ...queue.tenantCounts },
      };
    },
    domainFields: () => {
      const options = domains.options;
      return {
        verificationWorkflowOwnership: 'companion-owned',
        proofChallengeIssuanceOwnership: 'companion-owned',
        proofPublicationPlanningOwnership: 'companion-owned',
        httpProofPublicationOwnership: 'companion-owned',
        proofEvaluationOwnership: 'companion-owned',
        httpProofCollectionOwnership: options.EnableHttpFileCollection ? 'companion-owned' : 'disabled',
        proofVerificationRunnerOwnership: 'companion-owned',
        externalProofPollingOwnership: 'application-managed',
        backgroundProofPollingOwnership: options.EnableBackgroundPolling ? 'companion-owned' : 'disabled',
        publishedHttpProofCount: domains.publishedHttpProofCount,
        httpProofPathPrefix: options.HttpFilePathPrefix,
        dnsTxtCollectionEnabled: domains.dnsEnabled,
        dnsResolverConfigured: Boolean(options.DnsOverHttpsResolverUrl),
        dnsResolverKind: options.DnsOverHttpsResolverUrl
          ? `dns-over-https-${options.DnsOverHttpsFormat}`
          : null,
        challengeLifetimeSeconds: options.ChallengeLifetimeSeconds,
        backgroundPollingEnabled: options.EnableBackgroundPolling,
        backgroundPollingIntervalSeconds: options.EnableBackgroundPolling
          ? options.BackgroundPollingIntervalSeconds
          : null,
        backgroundPollingBatchSize: options.EnableBackgroundPolling
          ? options.BackgroundPollingBatchSize
          : null,
        backgroundPollingRunCount: domains.polling.runCount,
        backgroundPollingLatestOutcome: domains.polling.latestOutcome,
        dnsProofPublicationOwnership: 'application-managed',
        providerProofPublicationOwnership: 'application-managed',
      };
    },
  };
}
