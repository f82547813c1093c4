export {
  addTenantGovernance,
  governanceStoreNames,
  tenantGovernanceRegistrationKey,
} from './add-tenant-governance';
export type { TenantGovernanceExtensions } from './add-tenant-governance';
export {
  governanceSectionPath,
  tenantGovernanceOptionsSchema,
  configuredMembershipSchema,
  configuredInvitationSchema,
  configuredActionSchema,
  configuredDomainSchema,
} from './governance-options';
export type { TenantGovernanceOptions, TenantGovernanceOptionsInput } from './governance-options';
export { administrationCommands, tenantAdministrationWorkflowRequestSchema } from './administration-request';
export type { AdministrationCommand, TenantAdministrationWorkflowRequest } from './administration-request';
export { governanceActionRequestSchema } from './governance-actions';
export type { TenantGovernanceActionRequest, TenantGovernanceActionResult } from './governance-actions';
export { tenantGovernanceKey } from './tenant-governance';
export type {
  TenantGovernance,
  TenantAdministrationWorkflowResult,
  MembershipEvaluation,
  GovernanceContribution,
} from './tenant-governance';
export {
  membershipStatuses,
  principalKinds,
  inviteeKinds,
  invitationStatuses,
  actionKinds,
  actionSubjectKinds,
  actionStatuses,
  domainStatuses,
} from './governance-records';
export type {
  MembershipStatus,
  PrincipalKind,
  InviteeKind,
  InvitationStatus,
  GovernanceActionKind,
  GovernanceActionSubjectKind,
  GovernanceActionStatus,
  TenantDomainStatus,
  RecordOrigin,
  TenantMembership,
  TenantInvitation,
  TenantDomainRecord,
  GovernanceAction,
  GovernanceActionDecision,
  TenantAdministrationAuditEntry,
  AcceptanceMode,
  AcceptanceSecretHash,
  AuditFlag,
} from './governance-records';
export { invitationTransitions, actionTransitions, liveInvitationStatuses } from './invitation-state-machine';
export {
  invitationDeliveryDispatcherKey,
  invitationSenderRegistryKey,
  governanceDeliveryPostureKey,
  governanceHttpEndpointsPostureKey,
} from './delivery-seams';
export type {
  InvitationSender,
  InvitationSendRequest,
  InvitationSendResult,
  InvitationSendOutcome,
  InvitationDeliveryDispatcher,
  InvitationDispatchRequest,
  InvitationDispatchResult,
  InvitationSenderOutcome,
  InvitationSendMetadata,
  InvitationSenderRegistry,
  GovernanceDeliveryPosture,
  GovernanceHttpEndpointsPosture,
} from './delivery-seams';
export { deliveryNotRegisteredFields, domainVerificationNotRegisteredFields } from './governance-surfaces';
export { governanceEventIds, governanceEventIdNames } from './governance-event-ids';
export { versionConflictCode } from './record-store';
export {
  addTenantGovernanceDelivery,
  deliveryStoreNames,
  tenantGovernanceDeliveryRegistrationKey,
} from './add-tenant-governance-delivery';
export type {
  TenantGovernanceDelivery,
  TenantGovernanceDeliveryExtensions,
} from './add-tenant-governance-delivery';
export { deliveryOptionsSchema, domainVerificationOptionsSchema } from './delivery-options';
export type { DeliveryOptions, DeliveryOptionsInput, DomainVerificationOptions } from './delivery-options';
export { deliveryEventIds, deliveryEventIdNames } from './delivery-event-ids';
export {
  defaultRecipientMetadataKey,
  resolveInvitationRecipient,
  sanitizeSendMetadata,
  suppliesRecipient,
} from './delivery-recipient';
export { hashAcceptanceSecret } from './acceptance-secret';
export type { DeliveryRunRecord } from './delivery-dispatcher';
export { retryKey } from './retry-queue';
export type { RetryQueueEntry } from './retry-queue';
export { invitationDeliveryRetryRunnerKey } from './retry-runner';
export type { InvitationDeliveryRetryRunner, RetryPassResult } from './retry-runner';
export { supersedes } from './delivery-status-book';
export {
  attentionCategories,
  attentionRemediation,
  deliveryObservationInputSchema,
  deliveryStatuses,
  deliveryStatusRank,
  invitationDeliveryStatusKey,
  remediationActions,
  terminalDeliveryStatuses,
} from './delivery-status-types';
export type {
  AttentionCategory,
  AttentionItem,
  DeliveryObservation,
  DeliveryObservationInput,
  DeliveryObservationQuery,
  DeliveryObservationQueryResult,
  DeliveryStatus,
  InvitationDeliveryStatusRecord,
  InvitationDeliveryStatusService,
  ObservationOutcome,
  ObservationSubmitResult,
} from './delivery-status-types';
export { domainVerificationKey } from './domain-verification-types';
export type {
  DomainProofChallenge,
  PollingPassResult,
  ProofMethod,
  ProofPublicationPlan,
  TenantDomainVerification,
  VerificationOutcome,
  VerificationResult,
} from './domain-verification-types';
export type { ProofTransport } from './proof-collectors';
export { LocalFileStore } from './local-file-store';
export { invitationDispatchRequestSchema, deliveryObservationQuerySchema } from './delivery-request-schemas';
export type { InvitationDispatchRequestInput } from './delivery-request-schemas';
export { SenderRegistry } from './sender-registry';
export type { DeliveryDispatcher } from './delivery-dispatcher';
export type { DeliveryStatusBook } from './delivery-status-book';
export type { DomainVerifier } from './domain-verifier';
export type { RetryRunner } from './retry-runner';
