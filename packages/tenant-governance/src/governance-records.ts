/**
 * The governance records as stored and as commands answer them. Records carry principal, invitee, domain and
 * action identifiers: they are returned to the caller that asked for them and kept in the stores, and never
 * copied into a surface, a log record, a metric, a story entry or an error message.
 */

export const membershipStatuses = ['active', 'suspended', 'removed'] as const;
export type MembershipStatus = (typeof membershipStatuses)[number];

/** Who a membership is for: a person, a group of people, or a non-human caller. */
export const principalKinds = ['user', 'group', 'service'] as const;
export type PrincipalKind = (typeof principalKinds)[number];

/** How an invitee is named: an email address, an existing user id, or an external identity `<provider>:<subject>`. */
export const inviteeKinds = ['email', 'user', 'external-identity'] as const;
export type InviteeKind = (typeof inviteeKinds)[number];

export const invitationStatuses = ['pending', 'sent', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

export const actionKinds = ['approval', 'remediation'] as const;
export type GovernanceActionKind = (typeof actionKinds)[number];
export const actionSubjectKinds = ['tenant', 'membership', 'invitation', 'domain', 'role'] as const;
export type GovernanceActionSubjectKind = (typeof actionSubjectKinds)[number];
export const actionStatuses = [
  'pending',
  'approved',
  'rejected',
  'in-progress',
  'completed',
  'failed',
  'cancelled',
] as const;
export type GovernanceActionStatus = (typeof actionStatuses)[number];

export const domainStatuses = ['declared', 'pending-verification', 'verified', 'failed', 'expired'] as const;
export type TenantDomainStatus = (typeof domainStatuses)[number];

/** `configured`: from configuration or a module contribution, seeded at start. `runtime`: made by a command. */
export type RecordOrigin = 'configured' | 'runtime';

interface RecordCommon {
  readonly tenantId: string;
  readonly origin: RecordOrigin;
  /** The module that contributed a configured record; null for configuration and runtime records. */
  readonly sourceModuleId: string | null;
  readonly createdAtUtc: string;
  readonly updatedAtUtc: string;
  /** The store version of the record (compare-and-set); filled in on read. */
  readonly version?: number;
}

export interface TenantMembership extends RecordCommon {
  readonly membershipId: string;
  readonly principalKind: PrincipalKind;
  readonly principalId: string;
  readonly roles: readonly string[];
  readonly status: MembershipStatus;
  /** The invitation whose acceptance created or last changed it, if any. */
  readonly invitationId: string | null;
}

export interface TenantInvitation extends RecordCommon {
  readonly invitationId: string;
  readonly inviteeKind: InviteeKind;
  /** Normalized (email addresses in lower case). */
  readonly inviteeId: string;
  readonly roles: readonly string[];
  readonly status: InvitationStatus;
  readonly expiresAtUtc: string;
  /** Times the invitation was marked sent (by the host or a delivery dispatcher). */
  readonly sendCount: number;
  readonly resendCount: number;
  readonly sentAtUtc: string | null;
  readonly acceptedAtUtc: string | null;
  readonly revokedAtUtc: string | null;
  readonly expiredAtUtc: string | null;
  /** The principal that accepted it (kind and id), once accepted. */
  readonly acceptedBy: { readonly principalKind: PrincipalKind; readonly principalId: string } | null;
  /** Safe delivery hints for the delivery companion (recipient metadata keys...); never shown on surfaces. */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * How an accepted invitation was accepted: `acceptance-secret` (the invitee presented the secret its
   * message carried), `on-behalf` (an administrator accepted for the invitee; `acceptedByActor` says who) or
   * `identity` (a user or external-identity invitee, whose identity the host vouched for). Absent before
   * acceptance and on records written before this field existed.
   */
  readonly acceptanceMode?: AcceptanceMode;
  /** The audit actor of the acceptance (for `on-behalf`: the authorized administrator), or null. */
  readonly acceptedByActor?: string | null;
  /**
   * SHA-256 hashes of the live acceptance secrets, one per channel + sender that delivered the invitation.
   * Kept in the store only: every read and command answers the invitation without this field.
   */
  readonly acceptanceSecretHashes?: readonly AcceptanceSecretHash[];
}

/** How an invitation was accepted (see `TenantInvitation.acceptanceMode`). */
export type AcceptanceMode = 'acceptance-secret' | 'on-behalf' | 'identity';

/** One stored acceptance secret: the hash only, and which delivery minted it. */
export interface AcceptanceSecretHash {
  readonly channel: string;
  readonly senderId: string;
  /** `sha256:<base64url digest>` of the secret text. */
  readonly hash: string;
  readonly mintedAtUtc: string;
}

/**
 * A declared tenant domain. This package declares and removes them; verification (challenges, proofs,
 * polling) is implemented by the delivery and domain-ownership issue, which moves `status` on and fills
 * `verificationMethod` and `verifiedAtUtc` through the same store.
 */
export interface TenantDomainRecord extends RecordCommon {
  readonly domainId: string;
  /** Lower case, no trailing dot. */
  readonly domainName: string;
  readonly status: TenantDomainStatus;
  readonly verificationMethod: 'dns-txt' | 'http-file' | null;
  readonly verifiedAtUtc: string | null;
}

export interface GovernanceActionDecision {
  readonly decision: 'approve' | 'reject';
  readonly actor: string | null;
  readonly reason: string | null;
  readonly atUtc: string;
}

export interface GovernanceAction extends RecordCommon {
  readonly actionId: string;
  readonly kind: GovernanceActionKind;
  readonly subjectKind: GovernanceActionSubjectKind;
  readonly subjectId: string | null;
  readonly title: string;
  readonly status: GovernanceActionStatus;
  readonly requestedBy: string | null;
  readonly decisions: readonly GovernanceActionDecision[];
  /** A remediation's outcome note when completed or failed. */
  readonly outcomeNote: string | null;
}

/** One audit entry: what a command changed. Returned with every command and kept (bounded) in the audit store. */
export interface TenantAdministrationAuditEntry {
  readonly auditId: string;
  readonly command: string;
  readonly tenantId: string;
  readonly recordKind: 'membership' | 'invitation' | 'action' | 'domain';
  readonly recordId: string;
  readonly fromStatus: string | null;
  readonly toStatus: string;
  /** `applied`: the record changed. `unchanged`: the command asked for the state the record already had. */
  readonly outcome: 'applied' | 'unchanged';
  readonly actor: string | null;
  readonly correlationId: string | null;
  readonly atUtc: string;
  /** Facts about how the command ran (absent when none; see `AuditFlag`). */
  readonly flags?: readonly AuditFlag[];
}

/**
 * `accepted-on-behalf`: an administrator accepted the invitation for the invitee (the entry's actor).
 * `acceptance-secret-verified`: the invitee presented its acceptance secret. `recipient-supplied`: a
 * dispatch named its own recipient address in its metadata (the address itself is never recorded).
 */
export type AuditFlag = 'accepted-on-behalf' | 'acceptance-secret-verified' | 'recipient-supplied';
