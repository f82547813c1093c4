import { defineExtensionKey } from '@corekit/abstractions';
import type { AdministrationCommand, TenantAdministrationWorkflowRequest } from './administration-request';
import type { TenantGovernanceActionRequest, TenantGovernanceActionResult } from './governance-actions';
import type {
  GovernanceAction,
  PrincipalKind,
  TenantAdministrationAuditEntry,
  TenantDomainRecord,
  TenantInvitation,
  TenantMembership,
} from './governance-records';

/** The answer of one administration command: the changed record(s) and the audit entry. */
export interface TenantAdministrationWorkflowResult {
  readonly command: AdministrationCommand;
  /** `unchanged` when the record already had the asked state (suspending a suspended member...). */
  readonly outcome: 'applied' | 'unchanged';
  readonly membership: TenantMembership | null;
  readonly invitation: TenantInvitation | null;
  readonly audit: TenantAdministrationAuditEntry;
}

/** Is this principal a member of this tenant (with this role)? */
export interface MembershipEvaluation {
  /** True for an active membership (and, with `role`, holding it). */
  readonly allowed: boolean;
  readonly status: 'active' | 'suspended' | 'removed' | 'not-member';
  readonly roles: readonly string[];
}

/** Modules contribute configured records before the engine starts. */
export interface GovernanceContribution {
  readonly memberships?: ReadonlyArray<{
    tenantId: string;
    principalKind?: PrincipalKind;
    principalId: string;
    roles: readonly string[];
  }>;
  readonly actions?: ReadonlyArray<{
    id: string;
    tenantId: string;
    kind: GovernanceAction['kind'];
    subjectKind: GovernanceAction['subjectKind'];
    subjectId?: string;
    title: string;
  }>;
  readonly domains?: ReadonlyArray<{ tenantId: string; domainName: string }>;
}

/**
 * The governance service `addTenantGovernance` provides under `tenantGovernanceKey`. Every method works on
 * the stores; commands refuse with OperationError (kind and stable code) and never run before the engine
 * has started (503 GOVERNANCE_NOT_STARTED).
 */
export interface TenantGovernance {
  /** The administration command names `execute` accepts. */
  readonly supportedCommands: readonly AdministrationCommand[];
  /** Validates and runs one administration command. Invalid input: 400 GOVERNANCE_REQUEST_INVALID with the issues. */
  execute(
    request: TenantAdministrationWorkflowRequest | unknown,
  ): Promise<TenantAdministrationWorkflowResult>;
  /** Creates, decides on or moves a governance action. */
  executeAction(request: TenantGovernanceActionRequest | unknown): Promise<TenantGovernanceActionResult>;
  /** Marks an invitation sent (for the delivery dispatcher once a sender dispatched it); same as `mark-sent`. */
  markInvitationSent(tenantId: string, invitationId: string): Promise<TenantAdministrationWorkflowResult>;
  /**
   * For the delivery dispatcher, once per pass before any sender runs: mints a single-use acceptance secret
   * (256 random bits, base64url) per sender for one delivery of a live invitation, stores only their SHA-256
   * hashes on the invitation in one write (each replacing that channel + sender's previous hash) and answers
   * the plain secrets by sender id, for the messages. A secret expires with the invitation. 404
   * INVITATION_NOT_FOUND, 409 INVITATION_NOT_DELIVERABLE.
   */
  issueAcceptanceSecrets(target: {
    tenantId: string;
    invitationId: string;
    channel: string;
    senderIds: readonly string[];
  }): Promise<Record<string, string>>;
  /**
   * For the delivery dispatcher: records on the invitation's audit trail that a dispatch supplied its own
   * recipient address (actor, time, flag `recipient-supplied`; never the address).
   */
  recordSuppliedRecipient(request: {
    tenantId: string;
    invitationId: string;
    actor?: string | null;
    correlationId?: string | null;
  }): Promise<TenantAdministrationAuditEntry>;
  evaluate(query: {
    tenantId: string;
    principalKind?: PrincipalKind;
    principalId: string;
    role?: string;
  }): Promise<MembershipEvaluation>;
  getMembership(
    tenantId: string,
    principalKind: PrincipalKind,
    principalId: string,
  ): Promise<TenantMembership | undefined>;
  listMemberships(tenantId: string): Promise<readonly TenantMembership[]>;
  /** The invitation as of now (an overdue live invitation reads as expired). */
  getInvitation(tenantId: string, invitationId: string): Promise<TenantInvitation | undefined>;
  listInvitations(tenantId: string): Promise<readonly TenantInvitation[]>;
  getAction(tenantId: string, actionId: string): Promise<GovernanceAction | undefined>;
  listActions(tenantId: string): Promise<readonly GovernanceAction[]>;
  /** Declares a tenant domain (status declared). 409 DOMAIN_ALREADY_DECLARED when any tenant declared it. */
  declareDomain(request: {
    tenantId: string;
    domainName: string;
    actor?: string;
  }): Promise<TenantDomainRecord>;
  /** Removes a declared domain of the tenant; 404 DOMAIN_NOT_FOUND otherwise. */
  removeDomain(request: { tenantId: string; domainName: string; actor?: string }): Promise<void>;
  listDomains(tenantId: string): Promise<readonly TenantDomainRecord[]>;
  /** The latest audit entries, newest first (at most `limit`, default 100). */
  auditEntries(limit?: number): Promise<readonly TenantAdministrationAuditEntry[]>;
  /**
   * Marks every overdue live invitation expired; answers how many this call wrote. The sweep job and the start
   * call it; an invitation another writer changed meanwhile (another replica's sweep) is left to that writer.
   */
  expireOverdueInvitations(): Promise<number>;
  /** Adds configured records on behalf of a module; only before the engine starts. */
  contribute(moduleId: string, contribution: GovernanceContribution): void;
}

/** The typed key the web adapter and the delivery package resolve the governance service by. */
export const tenantGovernanceKey = defineExtensionKey<TenantGovernance>(
  '@corekit/tenant-governance/governance',
  'Tenant memberships, invitations, administration commands and governance actions',
);
