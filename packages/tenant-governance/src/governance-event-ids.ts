/**
 * Diagnostic event ids of the governance core. The spec gives tenant governance 4510-4549 and 4552-4557;
 * this package names 4510-4529. 4530-4549 and 4552-4557 are left to the delivery and domain-ownership
 * package (dispatch, retry, reconciliation, verification), registered under the same component.
 */
export const governanceEventIds = {
  registered: 4510,
  stateLoaded: 4511,
  membershipAdded: 4512,
  membershipRolesChanged: 4513,
  membershipRemoved: 4514,
  membershipSuspended: 4515,
  membershipReactivated: 4516,
  invitationCreated: 4517,
  invitationSent: 4518,
  invitationResent: 4519,
  invitationAccepted: 4520,
  invitationRevoked: 4521,
  invitationExpired: 4522,
  commandRefused: 4523,
  actionCreated: 4524,
  actionDecided: 4525,
  actionTransitioned: 4526,
  domainDeclared: 4527,
  domainRemoved: 4528,
  versionConflict: 4529,
} as const;

export const governanceEventIdNames: Readonly<Record<number, string>> = {
  4510: 'governance-registered',
  4511: 'governance-state-loaded',
  4512: 'membership-added',
  4513: 'membership-roles-changed',
  4514: 'membership-removed',
  4515: 'membership-suspended',
  4516: 'membership-reactivated',
  4517: 'invitation-created',
  4518: 'invitation-sent',
  4519: 'invitation-resent',
  4520: 'invitation-accepted',
  4521: 'invitation-revoked',
  4522: 'invitation-expired',
  4523: 'administration-command-refused',
  4524: 'governance-action-created',
  4525: 'governance-action-decided',
  4526: 'governance-action-transitioned',
  4527: 'tenant-domain-declared',
  4528: 'tenant-domain-removed',
  4529: 'governance-version-conflict',
};

/** The event id logged when a command applies, by command name. */
export const commandEventIds: Readonly<Record<string, number>> = {
  invite: governanceEventIds.invitationCreated,
  'mark-sent': governanceEventIds.invitationSent,
  resend: governanceEventIds.invitationResent,
  accept: governanceEventIds.invitationAccepted,
  revoke: governanceEventIds.invitationRevoked,
  expire: governanceEventIds.invitationExpired,
  'add-member': governanceEventIds.membershipAdded,
  'change-roles': governanceEventIds.membershipRolesChanged,
  'remove-member': governanceEventIds.membershipRemoved,
  'suspend-member': governanceEventIds.membershipSuspended,
  'reactivate-member': governanceEventIds.membershipReactivated,
  'action-create': governanceEventIds.actionCreated,
  'action-decide': governanceEventIds.actionDecided,
  'action-transition': governanceEventIds.actionTransitioned,
  'declare-domain': governanceEventIds.domainDeclared,
  'remove-domain': governanceEventIds.domainRemoved,
  // The audit entry of a dispatch that supplied its own recipient is a fact of the dispatch.
  dispatch: 4531,
};
