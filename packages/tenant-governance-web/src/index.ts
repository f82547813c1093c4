export {
  mapTenantGovernanceEndpoints,
  mapTenantAdministrationCommandEndpoint,
  mapTenantInvitationDeliveryDispatchEndpoint,
  mapTenantInvitationDeliveryStatusCallbackEndpoint,
  mapTenantInvitationDeliveryStatusObservationEndpoint,
  mapTenantDomainHttpProofEndpoint,
  governanceWebOperationIds,
  tenantGovernanceWebRegistrationKey,
} from './map-tenant-governance-endpoints';
export type {
  AdministrationCommandEndpointOptions,
  DeliveryDispatchEndpointOptions,
  DeliveryStatusCallbackEndpointOptions,
  DeliveryStatusObservationEndpointOptions,
  DomainHttpProofEndpointOptions,
  GovernanceWebExtensions,
  TenantGovernanceEndpoints,
} from './map-tenant-governance-endpoints';
export { endpointFamilies } from './endpoint-families';
export type { EndpointFamily } from './endpoint-families';
export { governanceWebOptionsSchema, governanceWebSectionPath } from './endpoint-options';
export type { GovernanceWebOptions, GovernanceWebOptionsInput } from './endpoint-options';
export type { EndpointPlan, EndpointState } from './endpoint-plan';
export {
  callbackSignatureCodes,
  signDeliveryStatusCallback,
  verifyCallbackSignature,
} from './callback-signature';
export type { CallbackSignatureSettings, VerifiedCallbackSignature } from './callback-signature';
export { callbackReplayCodes, callbackReplayStoreName } from './callback-replay-guard';
export {
  administrationCommandResponseSchema,
  invitationDispatchResponseSchema,
} from './administration-endpoints';
export {
  deliveryStatusCallbackRequestSchema,
  deliveryStatusCallbackResponseSchema,
  observationReadResponseSchema,
} from './delivery-status-endpoints';
export { governanceWebEventIds, governanceWebEventIdNames } from './web-event-ids';
export { governanceResourceKinds, tenantResourceCodes } from './tenant-resource';
