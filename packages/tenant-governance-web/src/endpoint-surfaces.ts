import type { StorePosture, TechnologySurface } from '@corekit/abstractions';
import { attentionCategories, remediationActions } from '@corekit/tenant-governance';
import type { CallbackReplayGuard } from './callback-replay-guard';
import { callbackReplayStoreName } from './callback-replay-guard';
import type { GovernanceWebOptions } from './endpoint-options';
import { planFields, type EndpointPlan } from './endpoint-plan';
import { authorizationTenantScope, tenantResourceCodes } from './tenant-resource';

const packageName = '@corekit/tenant-governance-web';

/** The plans and live counters the two endpoint surfaces report. */
export interface EndpointSurfaceState {
  readonly settings: GovernanceWebOptions;
  readonly command: EndpointPlan;
  readonly dispatch: EndpointPlan;
  readonly callback: EndpointPlan;
  readonly observations: EndpointPlan;
  readonly proofFiles: EndpointPlan;
  readonly replay: CallbackReplayGuard | null;
  /** The installed store provider's posture (the replay cache lives on it), read when the surface is read. */
  readonly store: StorePosture;
}

function surface(id: string, displayName: string, metadata: Record<string, unknown>): TechnologySurface {
  return { id, kind: 'tenant-governance', displayName, sourcePackage: packageName, metadata };
}

/**
 * `tenant-administration-http-endpoints` and `tenant-invitation-delivery-status-http-endpoints` (spec 2.1):
 * routes, methods, states, authorization posture, limits, the signature configuration as header names and
 * booleans, the replay posture and ownership boundaries. Never the signing secret, the key id or any
 * tenant, invitation, provider-message or domain identifier.
 */
export function endpointSurfaces(state: EndpointSurfaceState): TechnologySurface[] {
  const { settings } = state;
  const signed = settings.TenantInvitationDeliveryStatusCallbackSigningSecret !== undefined;
  const replayEnabled = settings.EnableTenantInvitationDeliveryStatusCallbackReplayProtection;
  return [
    surface('tenant-administration-http-endpoints', 'Tenant administration HTTP endpoints', {
      ...planFields('', state.command),
      authorizationTenantScope: authorizationTenantScope('command', state.command),
      tenantScopeConflictAnswer: `400-${tenantResourceCodes.conflict}`,
      requestContract: 'TenantAdministrationWorkflowRequest',
      auditActorSource: 'authorized-principal-subject-else-request-actor',
      ...planFields('deliveryDispatch', state.dispatch),
      deliveryDispatchAuthorizationTenantScope: authorizationTenantScope('dispatch', state.dispatch),
      deliveryDispatchRequestContract: 'InvitationDispatchRequest',
      deliveryDispatchResponseContract: 'InvitationDispatchResult',
      ...planFields('httpProofFile', state.proofFiles),
      httpProofFileAuthorization: 'anonymous',
      httpProofFileServedFor: 'live-http-file-challenges-only',
      httpProofFileContentType: 'text/plain',
      endpointOwnership: packageName,
      publicOnboardingOwnership: 'application-managed',
      adminUiOwnership: 'application-managed',
      providerSpecificSenderOwnership: 'sender-packages',
      externalDeliveryOwnership: 'application-managed',
      identityProviderSyncOwnership: 'application-managed',
    }),
    surface('tenant-invitation-delivery-status-http-endpoints', 'Invitation delivery-status HTTP endpoints', {
      ...planFields('callback', state.callback),
      callbackAuthorizationTenantScope: authorizationTenantScope('callback', state.callback),
      callbackRequestContract: 'TenantInvitationDeliveryStatusCallbackRequest',
      callbackMaxEventsPerRequest: settings.TenantInvitationDeliveryStatusCallbackMaxEventsPerRequest,
      providerMessageMatchRequired:
        settings.RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch,
      unknownInvitationAnswer: '200-with-event-outcome',
      signatureConfigured: signed,
      signatureAlgorithm: signed ? 'HMAC-SHA256' : null,
      signaturePayload: signed ? '{unixTimestamp}.{rawBody}' : null,
      signatureFormat: signed ? 'v1=<hex>' : null,
      signatureComparison: signed ? 'constant-time-raw-bytes' : null,
      signatureHeaderName: settings.TenantInvitationDeliveryStatusCallbackSignatureHeaderName,
      signatureTimestampHeaderName:
        settings.TenantInvitationDeliveryStatusCallbackSignatureTimestampHeaderName,
      signatureKeyIdHeaderName: settings.TenantInvitationDeliveryStatusCallbackSignatureKeyIdHeaderName,
      signatureKeyIdRequired: settings.TenantInvitationDeliveryStatusCallbackSigningKeyId !== undefined,
      signatureToleranceSeconds: settings.TenantInvitationDeliveryStatusCallbackSignatureToleranceSeconds,
      replayProtectionEnabled: replayEnabled,
      replayProtectionActive: state.replay !== null,
      replayProtectionPolicy: 'reject-duplicate-verified-signature-409',
      replayProtectionKey: 'sha256(key-id, timestamp, signature)',
      replayProtectionScope: replayEnabled ? state.store.scope : null,
      replayProtectionDurability: replayEnabled ? state.store.durability : null,
      replayProtectionStoreKind: replayEnabled ? state.store.kind : null,
      replayProtectionStore: callbackReplayStoreName,
      replayRetentionSeconds: settings.TenantInvitationDeliveryStatusCallbackReplayRetentionSeconds,
      replayCacheLimit: settings.TenantInvitationDeliveryStatusCallbackReplayCacheLimit,
      replayCacheFullAnswer: '503-retry-later',
      replayClaimedCount: state.replay?.counts.claimed ?? 0,
      replayRejectedCount: state.replay?.counts.rejected ?? 0,
      ...planFields('observation', state.observations),
      observationAuthorizationTenantScope: authorizationTenantScope('observations', state.observations),
      observationResponseContract: 'DeliveryObservationQueryResult',
      observationDefaultLimit: settings.TenantInvitationDeliveryStatusObservationDefaultLimit,
      observationMaxLimit: settings.TenantInvitationDeliveryStatusObservationMaxLimit,
      observationOverMaxLimit: 'clamped-and-reported',
      summaryOwnership: 'companion-owned',
      summaryScope: 'every-matching-observation',
      summaryDimensions: ['status', 'provider', 'tenant', 'channel', 'sender', 'attention-category'],
      attentionOwnership: 'companion-owned',
      attentionCategories: [...attentionCategories],
      providerMessageFilterOwnership: 'companion-owned',
      providerMessageFilterScope: 'exact-provider-message-id',
      remediationFilterOwnership: 'companion-owned',
      remediationFilterScope: 'attention-category-actions',
      remediationHintOwnership: 'companion-owned',
      remediationActions: [...remediationActions],
      providerCallbackInboxOwnership: 'application-managed',
      providerPayloadTranslationOwnership: 'provider-callback-packages',
      providerSignatureVerificationOwnership: 'provider-callback-packages',
      providerPollingOwnership: 'application-managed',
      distributedRemediationOwnership: 'application-managed',
      endpointOwnership: packageName,
    }),
  ];
}
