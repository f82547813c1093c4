import type { StorePosture } from '@corekit/abstractions';
import type { DeliveryDispatcher } from './delivery-dispatcher';
import type { SenderRegistry } from './sender-registry';
import type { DeliveryOptions } from './delivery-options';
import type { GovernanceDeliveryPosture } from './delivery-seams';
import type { DeliveryStatusBook } from './delivery-status-book';
import type { DomainVerifier } from './domain-verifier';
import type { RetryQueue } from './retry-queue';
import type { RetryRunner } from './retry-runner';
import type { SummaryFreshness } from './shared-state-mirrors';

/** A delivery store that reports where its records are (a local file, or the engine's provider). */
interface PlacedStore {
  readonly fileIgnored: boolean;
  posture(): StorePosture;
}

interface PostureParts {
  readonly settings: DeliveryOptions;
  /** Where the retry queue and the observations are, read when the surface is read. */
  readonly queueStore: PlacedStore;
  readonly observationStore: PlacedStore;
  /** How fresh the queue and observation counts are (read copies following a shared store's change feed). */
  readonly freshness: () => SummaryFreshness;
  readonly queue: RetryQueue;
  readonly retryRunner: RetryRunner;
  readonly dispatcher: DeliveryDispatcher;
  readonly senders: SenderRegistry;
  readonly status: DeliveryStatusBook;
  readonly domains: DomainVerifier;
}

/** The retry queue: where it is, how many entries, what happened to them (counts since this process started). */
function retryQueueFields(parts: PostureParts) {
  const { settings, queue } = parts;
  const enabled = settings.EnableInvitationDeliveryRetryQueue;
  const queueStore = parts.queueStore.posture();
  const freshness = parts.freshness();
  return {
    retryQueueEnabled: enabled,
    retryQueueOwnership: 'companion-owned',
    retryQueueKind: enabled ? queueStore.kind : null,
    retryQueueDurability: enabled ? queueStore.durability : null,
    retryQueueScope: enabled ? queueStore.scope : null,
    retryQueueFilePathUsed: settings.InvitationDeliveryRetryQueueFilePath
      ? !parts.queueStore.fileIgnored
      : null,
    retryQueueCount: queue.count,
    retryQueueCountSource: freshness.summarySource,
    retryQueueCountMaxStalenessSeconds: freshness.summaryMaxStalenessSeconds,
    retryQueuedTotal: queue.counts.queuedTotal,
    retryCompletedTotal: queue.counts.completedTotal,
    retryExhaustedTotal: queue.counts.exhaustedTotal,
    retryAbandonedTotal: queue.counts.abandonedTotal,
    retryQueueFullTotal: queue.counts.fullTotal,
    latestRetryOutcome: queue.counts.latestOutcome,
    retryMaxAttempts: settings.InvitationDeliveryRetryMaxAttempts,
    retryDelaySeconds: settings.InvitationDeliveryRetryDelaySeconds,
    retryMaxItems: settings.InvitationDeliveryRetryMaxItems,
  };
}

/** The pass guard (per process by design) and the claims that coordinate entries between replicas. */
function retryCoordinationFields(parts: PostureParts) {
  const { settings, queue } = parts;
  const enabled = settings.EnableInvitationDeliveryRetryQueue;
  const coordination = settings.EnableInvitationDeliveryRetryExecutionCoordination;
  const queueStore = parts.queueStore.posture();
  const claimed = enabled && queueStore.shared;
  return {
    retryExecutionCoordinationEnabled: coordination,
    retryExecutionCoordinationOwnership: 'companion-owned',
    // The pass guard is per process by design (a job of this engine); entries are coordinated by claims.
    retryExecutionCoordinationScope: coordination ? 'process-local' : null,
    retryExecutionCoordinationMode: coordination ? 'skip-overlapping-pass' : null,
    // Entries are claimed only on a shared queue store; one process owns a Memory or File queue.
    retryClaimMode: enabled
      ? queueStore.shared
        ? 'owner-lease-compare-and-set'
        : 'single-process-queue'
      : null,
    retryClaimScope: enabled ? queueStore.scope : null,
    retryClaimLeaseSeconds: claimed ? settings.InvitationDeliveryRetryLeaseSeconds : null,
    retryClaimedCount: queue.claimedCount,
    retryClaimedTotal: queue.counts.claimedTotal,
    retryClaimTakenOverTotal: queue.counts.takenOverTotal,
    retryClaimLostTotal: queue.counts.claimLostTotal,
    // The owner renews its claim while the send is in flight; a claim lost meanwhile records no outcome.
    retryClaimRenewMilliseconds: claimed
      ? (settings.InvitationDeliveryRetryLeaseRenewMilliseconds ??
        Math.floor((settings.InvitationDeliveryRetryLeaseSeconds * 1000) / 3))
      : null,
    retryClaimLostDuringSendTotal: queue.counts.claimLostDuringSendTotal,
  };
}

/** The retry runner's passes and its background scheduling. */
function retryExecutionFields({ settings, retryRunner }: PostureParts) {
  const execution = retryRunner.execution;
  return {
    retryExecutionInProgress: execution.inProgress,
    retryExecutionRunCount: execution.runCount,
    retryExecutionAlreadyRunningCount: execution.alreadyRunningCount,
    latestRetryExecutionOutcome: execution.latestOutcome,
    latestRetryExecutionStartedAtUtc: execution.latestStartedAtUtc,
    latestRetryExecutionCompletedAtUtc: execution.latestCompletedAtUtc,
    retryBackgroundSchedulingEnabled:
      settings.EnableInvitationDeliveryRetryQueue &&
      settings.EnableInvitationDeliveryRetryBackgroundScheduling,
    retryBackgroundIntervalSeconds: settings.InvitationDeliveryRetryBackgroundIntervalSeconds,
    retryBackgroundRunOnStartup: settings.InvitationDeliveryRetryBackgroundRunOnStartup,
    retryBackgroundSource: settings.InvitationDeliveryRetryBackgroundSource,
  };
}

/** Status reconciliation and the observation store. */
function observationFields(parts: PostureParts) {
  const { settings, status } = parts;
  const observationStore = parts.observationStore.posture();
  return {
    statusReconciliationOwnership: 'companion-owned',
    observationStoreKind: observationStore.kind,
    observationStoreDurability: observationStore.durability,
    observationStoreScope: observationStore.scope,
    observationStoreFilePathUsed: settings.InvitationDeliveryObservationStoreFilePath
      ? !parts.observationStore.fileIgnored
      : null,
    observationHistoryLimit: settings.InvitationDeliveryObservationHistoryLimit,
    observationCount: status.counts.observationCount,
    observationCountSource: parts.freshness().summarySource,
    latestObservation: status.counts.latestObservation,
    externalDeliveryStatusOwnership: 'provider-managed',
    statusReportedCount: status.counts.statusReportedCount,
    latestStatus: status.counts.latestStatus,
    latestObservedAtUtc: status.counts.latestObservedAtUtc,
    attentionCategories: Object.keys(status.categories),
  };
}

/** The senders and the dispatcher's runs. */
function dispatchFields({ senders, dispatcher, queue }: PostureParts) {
  return {
    senderCount: senders.list().length,
    senderIds: senders.list().map((sender) => sender.id),
    senderOwnership: 'sender-packages',
    externalDeliveryOwnership: 'application-managed',
    deliveryRunCount: dispatcher.counts.runCount,
    deliveryRunOutcomeCounts: { ...dispatcher.counts.outcomes },
    latestDeliveryOutcome: dispatcher.counts.latestOutcome,
    perTenantRetryCounts: { ...queue.tenantCounts },
  };
}

/** The verification fields of `tenant-domain-ownership`. */
function domainFields(domains: DomainVerifier) {
  const options = domains.options;
  const polling = options.EnableBackgroundPolling;
  return {
    verificationWorkflowOwnership: 'companion-owned',
    proofChallengeIssuanceOwnership: 'companion-owned',
    proofPublicationPlanningOwnership: 'companion-owned',
    httpProofPublicationOwnership: 'companion-owned',
    proofEvaluationOwnership: 'companion-owned',
    httpProofCollectionOwnership: options.EnableHttpFileCollection ? 'companion-owned' : 'disabled',
    proofVerificationRunnerOwnership: 'companion-owned',
    externalProofPollingOwnership: 'application-managed',
    backgroundProofPollingOwnership: polling ? 'companion-owned' : 'disabled',
    publishedHttpProofCount: domains.publishedHttpProofCount,
    httpProofPathPrefix: options.HttpFilePathPrefix,
    dnsTxtCollectionEnabled: domains.dnsEnabled,
    dnsResolverConfigured: Boolean(options.DnsOverHttpsResolverUrl),
    dnsResolverKind: options.DnsOverHttpsResolverUrl ? `dns-over-https-${options.DnsOverHttpsFormat}` : null,
    challengeLifetimeSeconds: options.ChallengeLifetimeSeconds,
    backgroundPollingEnabled: polling,
    backgroundPollingIntervalSeconds: polling ? options.BackgroundPollingIntervalSeconds : null,
    backgroundPollingBatchSize: polling ? options.BackgroundPollingBatchSize : null,
    backgroundPollingRunCount: domains.polling.runCount,
    backgroundPollingLatestOutcome: domains.polling.latestOutcome,
    dnsProofPublicationOwnership: 'application-managed',
    providerProofPublicationOwnership: 'application-managed',
  };
}

/**
 * The delivery and domain-verification fields of the `tenant-invitations` and `tenant-domain-ownership`
 * surfaces: settings, counts (since this process started unless said otherwise), states and sender ids.
 * Never an invitation, invitee, recipient, domain-name, token or provider-message identifier.
 */
export function deliveryPosture(parts: PostureParts): GovernanceDeliveryPosture {
  return {
    invitationFields: () => ({
      ...retryQueueFields(parts),
      ...retryCoordinationFields(parts),
      ...retryExecutionFields(parts),
      ...observationFields(parts),
      ...dispatchFields(parts),
    }),
    domainFields: () => domainFields(parts.domains),
  };
}
