import type { StorePosture, TechnologySurface } from '@corekit/abstractions';
import { administrationCommands } from './administration-request';
import type { GovernanceDeliveryPosture, GovernanceHttpEndpointsPosture } from './delivery-seams';
import type { GovernanceContext } from './governance-context';
import type {
  GovernanceAction,
  TenantDomainRecord,
  TenantInvitation,
  TenantMembership,
} from './governance-records';
import { withExpiry } from './invitation-state-machine';
import type { SummaryFreshness } from './shared-state-mirrors';

const packageName = '@corekit/tenant-governance';
const notRegistered = 'not-registered';

/** Invitation surface fields owned by the delivery package, as reported while it is not registered. */
export const deliveryNotRegisteredFields: Readonly<Record<string, unknown>> = {
  retryQueueEnabled: false,
  retryQueueOwnership: notRegistered,
  retryQueueKind: null,
  retryQueueDurability: null,
  retryQueueScope: null,
  retryQueueFilePathUsed: null,
  retryQueueCount: 0,
  retryQueueCountSource: null,
  retryQueueCountMaxStalenessSeconds: null,
  retryQueuedTotal: 0,
  retryCompletedTotal: 0,
  retryExhaustedTotal: 0,
  retryAbandonedTotal: 0,
  retryQueueFullTotal: 0,
  latestRetryOutcome: null,
  retryMaxAttempts: null,
  retryDelaySeconds: null,
  retryMaxItems: null,
  retryExecutionCoordinationEnabled: false,
  retryExecutionCoordinationOwnership: notRegistered,
  retryExecutionCoordinationScope: null,
  retryExecutionCoordinationMode: null,
  retryClaimMode: null,
  retryClaimScope: null,
  retryClaimLeaseSeconds: null,
  retryClaimedCount: 0,
  retryClaimedTotal: 0,
  retryClaimTakenOverTotal: 0,
  retryClaimLostTotal: 0,
  retryClaimRenewMilliseconds: null,
  retryClaimLostDuringSendTotal: 0,
  retryExecutionInProgress: false,
  retryExecutionRunCount: 0,
  retryExecutionAlreadyRunningCount: 0,
  latestRetryExecutionOutcome: null,
  latestRetryExecutionStartedAtUtc: null,
  latestRetryExecutionCompletedAtUtc: null,
  retryBackgroundSchedulingEnabled: false,
  retryBackgroundIntervalSeconds: null,
  retryBackgroundRunOnStartup: false,
  retryBackgroundSource: null,
  statusReconciliationOwnership: notRegistered,
  observationStoreKind: null,
  observationStoreDurability: null,
  observationStoreScope: null,
  observationStoreFilePathUsed: null,
  observationHistoryLimit: null,
  observationCount: 0,
  observationCountSource: null,
  latestObservation: null,
  externalDeliveryStatusOwnership: 'provider-managed',
  statusReportedCount: 0,
  latestStatus: null,
  latestObservedAtUtc: null,
  attentionCategories: [],
  senderCount: 0,
  senderIds: [],
  senderOwnership: notRegistered,
  externalDeliveryOwnership: 'application-managed',
  deliveryRunCount: 0,
  deliveryRunOutcomeCounts: { dispatched: 0, suppressed: 0, 'sender-failed': 0, 'already-running': 0 },
  latestDeliveryOutcome: null,
  perTenantRetryCounts: {},
};

/** Domain surface fields owned by the domain-verification package, as reported while it is not registered. */
export const domainVerificationNotRegisteredFields: Readonly<Record<string, unknown>> = {
  verificationWorkflowOwnership: notRegistered,
  proofChallengeIssuanceOwnership: notRegistered,
  proofPublicationPlanningOwnership: notRegistered,
  httpProofPublicationOwnership: notRegistered,
  proofEvaluationOwnership: notRegistered,
  httpProofCollectionOwnership: notRegistered,
  proofVerificationRunnerOwnership: notRegistered,
  externalProofPollingOwnership: 'application-managed',
  backgroundProofPollingOwnership: notRegistered,
  publishedHttpProofCount: 0,
  httpProofPathPrefix: null,
  dnsTxtCollectionEnabled: false,
  dnsResolverConfigured: false,
  dnsResolverKind: null,
  challengeLifetimeSeconds: null,
  backgroundPollingEnabled: false,
  backgroundPollingIntervalSeconds: null,
  backgroundPollingBatchSize: null,
  backgroundPollingRunCount: 0,
  backgroundPollingLatestOutcome: null,
  dnsProofPublicationOwnership: 'application-managed',
  providerProofPublicationOwnership: 'application-managed',
};

function countBy<T>(items: readonly T[], keyOf: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return counts;
}

function perTenant<T extends { tenantId: string }>(items: readonly T[], keyOf: (item: T) => string) {
  const result: Record<string, Record<string, number>> = {};
  for (const item of items) {
    const tenant = (result[item.tenantId] ??= {});
    tenant[keyOf(item)] = (tenant[keyOf(item)] ?? 0) + 1;
  }
  return result;
}

function origins<T extends { origin: string; sourceModuleId: string | null; tenantId: string }>(
  items: readonly T[],
) {
  const modules = [
    ...new Set(items.map((item) => item.sourceModuleId).filter((id): id is string => id !== null)),
  ].sort();
  return {
    tenantCount: new Set(items.map((item) => item.tenantId)).size,
    contributorCount: modules.length,
    configuredCount: items.filter((item) => item.origin === 'configured').length,
    runtimeCount: items.filter((item) => item.origin === 'runtime').length,
    contributingModuleIds: modules,
  };
}

function storeFields(store: StorePosture, freshness: SummaryFreshness) {
  return {
    storeKind: store.kind,
    storeDurability: store.durability,
    storeScope: store.scope,
    storeOwnership: 'core-store-contract',
    durableStoreOwnership: store.durable ? 'installed-store-provider' : 'not-configured',
    ...freshness,
  };
}

function roleSummaries(items: ReadonlyArray<{ roles: readonly string[] }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) for (const role of item.roles) counts[role] = (counts[role] ?? 0) + 1;
  return counts;
}

/** What every governance surface is built from, read once per surface read. */
interface SurfaceInputs {
  readonly context: GovernanceContext;
  readonly store: StorePosture;
  readonly freshness: SummaryFreshness;
  readonly delivery: GovernanceDeliveryPosture | undefined;
  readonly memberships: readonly TenantMembership[];
  readonly invitations: readonly TenantInvitation[];
  readonly domains: readonly TenantDomainRecord[];
  readonly actions: readonly GovernanceAction[];
  /** The package that mapped governance endpoints, null when none is mapped. */
  readonly endpointOwner: string | null;
}

function surface(id: string, displayName: string, metadata: Record<string, unknown>): TechnologySurface {
  return { id, kind: 'tenant-governance', displayName, sourcePackage: packageName, metadata };
}

function membershipsSurface({ memberships, store, freshness }: SurfaceInputs): TechnologySurface {
  const memberOrigins = origins(memberships);
  return surface('tenant-memberships', 'Tenant memberships', {
    membershipCount: memberships.length,
    tenantCount: memberOrigins.tenantCount,
    contributorCount: memberOrigins.contributorCount,
    configuredMembershipCount: memberOrigins.configuredCount,
    runtimeMembershipCount: memberOrigins.runtimeCount,
    ...storeFields(store, freshness),
    evaluationOwnership: 'companion-owned',
    perTenantStatusCounts: perTenant(memberships, (item) => item.status),
    roleSummaries: roleSummaries(memberships.filter((item) => item.status === 'active')),
    principalKindBreakdown: countBy(memberships, (item) => item.principalKind),
    contributingModuleIds: memberOrigins.contributingModuleIds,
  });
}

function invitationsSurface({ invitations, store, freshness, delivery }: SurfaceInputs): TechnologySurface {
  const invitationOrigins = origins(invitations);
  return surface('tenant-invitations', 'Tenant invitations', {
    invitationCount: invitations.length,
    tenantCount: invitationOrigins.tenantCount,
    contributorCount: invitationOrigins.contributorCount,
    configuredInvitationCount: invitationOrigins.configuredCount,
    runtimeInvitationCount: invitationOrigins.runtimeCount,
    ...storeFields(store, freshness),
    validationOwnership: 'companion-owned',
    ...deliveryNotRegisteredFields,
    ...(delivery?.invitationFields() ?? {}),
    statusBreakdown: countBy(invitations, (item) => item.status),
    perTenantStatusCounts: perTenant(invitations, (item) => item.status),
    roleSummaries: roleSummaries(invitations),
    inviteeKindBreakdown: countBy(invitations, (item) => item.inviteeKind),
    contributingModuleIds: invitationOrigins.contributingModuleIds,
  });
}

function administrationSurface(inputs: SurfaceInputs): TechnologySurface {
  const { context, store, freshness, memberships, invitations, endpointOwner } = inputs;
  const deliveryRegistered = inputs.delivery !== undefined;
  return surface('tenant-administration', 'Tenant administration', {
    workflowEnabled: true,
    membershipAdministrationOwnership: 'companion-owned',
    invitationAdministrationOwnership: 'companion-owned',
    membershipStoreKind: store.kind,
    invitationStoreKind: store.kind,
    storeDurability: store.durability,
    storeScope: store.scope,
    ...freshness,
    membershipCount: memberships.length,
    invitationCount: invitations.length,
    supportedCommands: [...administrationCommands],
    appliedCommandCounts: Object.fromEntries(context.applied),
    refusedCommandCounts: Object.fromEntries(context.refused),
    publicOnboardingOwnership: 'application-managed',
    hostAdapterEndpointOwnership: endpointOwner ?? 'not-mapped',
    deliveryDispatchOwnership: deliveryRegistered ? 'companion-owned' : notRegistered,
    statusReconciliationOwnership: deliveryRegistered ? 'companion-owned' : notRegistered,
    providerSpecificSenderOwnership: 'sender-packages',
    externalDeliveryOwnership: 'application-managed',
    externalDeliveryStatusOwnership: 'provider-managed',
    identityProviderSyncOwnership: 'application-managed',
  });
}

function domainOwnershipSurface({ domains, store, freshness, delivery }: SurfaceInputs): TechnologySurface {
  const domainOrigins = origins(domains);
  return surface('tenant-domain-ownership', 'Tenant domain ownership', {
    domainOwnershipCount: domains.length,
    tenantCount: domainOrigins.tenantCount,
    contributorCount: domainOrigins.contributorCount,
    configuredDomainCount: domainOrigins.configuredCount,
    runtimeDomainCount: domainOrigins.runtimeCount,
    ...storeFields(store, freshness),
    validationOwnership: 'companion-owned',
    ...domainVerificationNotRegisteredFields,
    ...(delivery?.domainFields() ?? {}),
    statusBreakdown: countBy(domains, (item) => item.status),
    verificationMethodBreakdown: countBy(domains, (item) => item.verificationMethod ?? 'none'),
    contributingModuleIds: domainOrigins.contributingModuleIds,
  });
}

function actionsSurface({ actions, store, freshness }: SurfaceInputs): TechnologySurface {
  const actionOrigins = origins(actions);
  return surface('tenant-governance-actions', 'Tenant governance actions', {
    actionCount: actions.length,
    tenantCount: actionOrigins.tenantCount,
    contributorCount: actionOrigins.contributorCount,
    configuredActionCount: actionOrigins.configuredCount,
    runtimeActionCount: actionOrigins.runtimeCount,
    decisionOwnership: 'companion-owned',
    workflowExecutionOwnership: 'in-process-state-transitions',
    ...storeFields(store, freshness),
    notificationDeliveryOwnership: 'application-managed',
    statusBreakdown: countBy(actions, (item) => item.status),
    actionKindBreakdown: countBy(actions, (item) => item.kind),
    subjectKindBreakdown: countBy(actions, (item) => item.subjectKind),
    contributingModuleIds: actionOrigins.contributingModuleIds,
  });
}

/**
 * The governance surfaces of spec 2.1 (all but the two endpoint ones, which the web adapter reports). Counts,
 * states, kinds, roles, tenant and module ids only: never a principal, invitee, domain-name or action id.
 */
export function governanceSurfaces(
  context: GovernanceContext,
  store: StorePosture,
  delivery: GovernanceDeliveryPosture | undefined,
  endpoints?: GovernanceHttpEndpointsPosture,
): TechnologySurface[] {
  const now = context.now();
  const mappedFamilies = endpoints ? [...endpoints.mappedFamilies()] : [];
  const inputs: SurfaceInputs = {
    context,
    store,
    freshness: context.sharedState.freshness(),
    delivery,
    memberships: context.memberships.values(),
    invitations: context.invitations.values().map((invitation) => withExpiry(invitation, now)),
    domains: context.domains.values(),
    actions: context.actions.values(),
    endpointOwner: mappedFamilies.length > 0 ? endpoints!.ownerPackage : null,
  };
  return [
    surface('tenant-governance-boundaries', 'Tenant governance boundaries', {
      boundaries: boundaries(delivery !== undefined, inputs.endpointOwner, mappedFamilies),
    }),
    membershipsSurface(inputs),
    invitationsSurface(inputs),
    administrationSurface(inputs),
    domainOwnershipSurface(inputs),
    actionsSurface(inputs),
  ];
}

function boundaries(
  deliveryRegistered: boolean,
  endpointOwner: string | null,
  mappedEndpointFamilies: readonly string[],
) {
  const owned = (boundary: string) => ({
    boundary,
    ownership: 'companion-owned',
    requiresGovernanceRegistration: true,
    ownerPackage: packageName,
  });
  const planned = (boundary: string) => ({
    boundary,
    ownership: 'taxonomy-only',
    plannedOwnership: 'companion-planned',
    basePackageOwnership: 'not-owned',
    suggestedPackage: packageName,
  });
  return [
    { boundary: 'tenant-resolution-core', ownership: 'core-managed', ownerPackage: '@corekit/tenancy' },
    owned('tenant-memberships'),
    owned('tenant-invitations'),
    owned('tenant-administration'),
    owned('declared-domain-ownership'),
    owned('approval-remediation-actions'),
    ...(deliveryRegistered ? [owned('invitation-delivery')] : [planned('invitation-delivery')]),
    planned('public-onboarding'),
    planned('identity-provider-synchronization'),
    endpointOwner
      ? {
          ...owned('governance-http-endpoints'),
          ownerPackage: endpointOwner,
          mappedEndpointFamilies: [...mappedEndpointFamilies],
        }
      : planned('governance-http-endpoints'),
    planned('tenant-admin-ui'),
  ];
}
