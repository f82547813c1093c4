import { identifierSchema } from '@corekit/abstractions';
import { z } from 'zod';
import { actionKinds, actionSubjectKinds, inviteeKinds, principalKinds } from './governance-records';

/** The configuration section bound by `addTenantGovernance`. */
export const governanceSectionPath = 'Engine:MultiTenancy:Governance';

const roleName = z
  .string()
  .regex(/^[a-z][a-z0-9._-]{0,63}$/, 'must be a lower-case role name (a-z, 0-9, . _ -)');
/** A principal or invitee id as configured; the kind-specific shape is checked by the commands' validation. */
const principalId = z.string().trim().min(1).max(256);

export const configuredMembershipSchema = z.object({
  TenantId: identifierSchema,
  PrincipalKind: z.enum(principalKinds).default('user'),
  PrincipalId: principalId,
  Roles: z.array(roleName).min(1),
  Status: z.enum(['active', 'suspended']).default('active'),
});

export const configuredInvitationSchema = z.object({
  /** Stable id, so a restart finds the seeded record instead of creating another. */
  Id: identifierSchema,
  TenantId: identifierSchema,
  InviteeKind: z.enum(inviteeKinds),
  InviteeId: principalId,
  Roles: z.array(roleName).min(1),
});

export const configuredActionSchema = z.object({
  Id: identifierSchema,
  TenantId: identifierSchema,
  Kind: z.enum(actionKinds),
  SubjectKind: z.enum(actionSubjectKinds),
  SubjectId: z.string().trim().min(1).max(256).optional(),
  Title: z.string().trim().min(1).max(200),
});

export const configuredDomainSchema = z.object({
  TenantId: identifierSchema,
  DomainName: z.string().trim().min(1).max(253),
});

/**
 * `Engine:MultiTenancy:Governance` as this package binds it. The delivery keys of the same section (retry
 * queue, sender sub-sections) and `AspNetCore` are bound by the packages that implement them.
 */
export const tenantGovernanceOptionsSchema = z
  .object({
    /** Role names commands may grant. Default owner, admin, member, viewer. */
    Roles: z.array(roleName).min(1).max(100).default(['owner', 'admin', 'member', 'viewer']),
    /** Memberships seeded at start when absent (origin `configured`). */
    Memberships: z.array(configuredMembershipSchema).max(10_000).default([]),
    /** Invitations seeded at start when absent (origin `configured`, status pending). */
    Invitations: z.array(configuredInvitationSchema).max(10_000).default([]),
    /** Governance actions seeded at start when absent (origin `configured`, status pending). */
    Actions: z.array(configuredActionSchema).max(10_000).default([]),
    /** Declared tenant domains seeded at start when absent (status declared; verification is another package's). */
    Domains: z.array(configuredDomainSchema).max(10_000).default([]),
    /** Lifetime of a new or resent invitation, in seconds. Default 604800 (7 days); 60 to 31536000. */
    InvitationLifetimeSeconds: z.number().int().min(60).max(31_536_000).default(604_800),
    /** Longest lifetime a command may ask for (`expiresInSeconds`). Default 2592000 (30 days). */
    InvitationMaxLifetimeSeconds: z.number().int().min(60).max(31_536_000).default(2_592_000),
    /** Seconds between passes that mark overdue invitations expired; 0 disables the job (expiry is still applied on every read). Default 300. */
    InvitationExpirySweepIntervalSeconds: z.number().int().min(0).max(86_400).default(300),
    /**
     * With a shared store provider (PostgreSQL, Redis): the polling interval of the per-process copies the
     * surfaces read (records, retry-queue, observation and live-proof counts) while the provider has no change
     * feed, the feed is switched off (`Engine:Stores:ChangeFeed:Enabled`) or it is down: another replica's write
     * then shows within this bound (plus one store round trip). With the feed connected the copies follow each
     * change instead (the bound is measured), and read every store whole only on the feed's safety-net interval
     * (`Engine:Stores:ChangeFeed:FullReadIntervalSeconds`). This process's own writes show at once. Unused with
     * Memory or File stores (one process owns the records). Default 5; 1 to 300.
     */
    SharedStateRefreshIntervalSeconds: z.number().int().min(1).max(300).default(5),
    /** Audit entries kept; the oldest are dropped beyond it. Default 1000; 10 to 100000. */
    AuditMaxEntries: z.number().int().min(10).max(100_000).default(1000),
    /** Records kept per store (memberships, invitations, domains, actions). Default 10000. */
    MaxRecordsPerStore: z.number().int().min(10).max(1_000_000).default(10_000),
  })
  .superRefine((options, context) => {
    if (new Set(options.Roles).size !== options.Roles.length) {
      context.addIssue({ code: 'custom', path: ['Roles'], message: 'must not list a role twice' });
    }
    if (options.InvitationLifetimeSeconds > options.InvitationMaxLifetimeSeconds) {
      context.addIssue({
        code: 'custom',
        path: ['InvitationLifetimeSeconds'],
        message: 'must not exceed InvitationMaxLifetimeSeconds',
      });
    }
    const roles = new Set(options.Roles);
    for (const [listName, list] of [
      ['Memberships', options.Memberships],
      ['Invitations', options.Invitations],
    ] as const) {
      list.forEach((item, index) => {
        item.Roles.forEach((role, roleIndex) => {
          if (!roles.has(role)) {
            context.addIssue({
              code: 'custom',
              path: [listName, index, 'Roles', roleIndex],
              message: `must be one of the configured Roles (${options.Roles.join(', ')})`,
            });
          }
        });
      });
    }
  });

export type TenantGovernanceOptions = z.output<typeof tenantGovernanceOptionsSchema>;
export type TenantGovernanceOptionsInput = z.input<typeof tenantGovernanceOptionsSchema>;
