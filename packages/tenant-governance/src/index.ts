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
} from './governance-records';
export { invitationTransitions, actionTransitions, liveInvitationStatuses } from './invitation-state-machine';
export {
  invitationDeliveryDispatcherKey,
  invitationSenderRegistryKey,
  governanceDeliveryPostureKey,
} from './delivery-seams';
export type {
  InvitationSender,
  InvitationSendRequest,
  InvitationSendResult,
  InvitationSendOutcome,
  InvitationDeliveryDispatcher,
  InvitationDispatchResult,
  InvitationSenderRegistry,
  GovernanceDeliveryPosture,
} from './delivery-seams';
export { deliveryNotRegisteredFields, domainVerificationNotRegisteredFields } from './governance-surfaces';
export { governanceEventIds, governanceEventIdNames } from './governance-event-ids';
export { versionConflictCode } from './record-store';
