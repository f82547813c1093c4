import { identifierSchema } from '@corekit/abstractions';
import { z } from 'zod';
import { inviteeKinds, principalKinds } from './governance-records';

/** Names of the administration commands, in the order the README documents them. */
export const administrationCommands = [
  'invite',
  'resend',
  'mark-sent',
  'revoke',
  'accept',
  'add-member',
  'change-roles',
  'remove-member',
  'suspend-member',
  'reactivate-member',
] as const;
export type AdministrationCommand = (typeof administrationCommands)[number];

const roles = z.array(z.string().min(1).max(64)).min(1).max(100);
const common = {
  tenantId: identifierSchema,
  /** Who asks (an id the host vouches for); kept in the audit entry, never logged. */
  actor: z.string().trim().min(1).max(256).optional(),
  /** Correlates the audit entry with the caller's own records. */
  correlationId: z.string().trim().min(1).max(200).optional(),
  /** Compare-and-set: refuse with 409 unless the record still has this version. */
  expectedVersion: z.number().int().positive().optional(),
};
const principal = {
  principalKind: z.enum(principalKinds).default('user'),
  principalId: z.string().trim().min(1).max(256),
};
const invitationRef = { ...common, invitationId: identifierSchema };

/**
 * The one request of tenant administration (`governance.execute(request)`, and the body of
 * `POST /engine/tenant-administration/commands` once the web adapter maps it): a command name plus its
 * fields. Unknown fields are refused.
 */
export const tenantAdministrationWorkflowRequestSchema = z.discriminatedUnion('command', [
  z
    .object({
      command: z.literal('invite'),
      ...common,
      inviteeKind: z.enum(inviteeKinds),
      inviteeId: z.string().trim().min(1).max(320),
      roles,
      /** Lifetime in seconds; default InvitationLifetimeSeconds, at most InvitationMaxLifetimeSeconds. */
      expiresInSeconds: z.number().int().min(60).optional(),
      /** Safe delivery hints (recipient metadata keys) for the delivery companion; at most 20 entries. */
      metadata: z
        .record(z.string().regex(/^[A-Za-z][A-Za-z0-9._-]{0,63}$/), z.string().max(1000))
        .refine((value) => Object.keys(value).length <= 20, 'at most 20 entries')
        .optional(),
    })
    .strict(),
  z
    .object({
      command: z.literal('resend'),
      ...invitationRef,
      expiresInSeconds: z.number().int().min(60).optional(),
    })
    .strict(),
  z.object({ command: z.literal('mark-sent'), ...invitationRef }).strict(),
  z
    .object({ command: z.literal('revoke'), ...invitationRef, reason: z.string().max(500).optional() })
    .strict(),
  z
    .object({
      command: z.literal('accept'),
      ...invitationRef,
      ...principal,
      /**
       * The invitee's proof of receipt: the acceptance secret its message carried. Required for the
       * invitee's own acceptance of an email invitation; never stored, logged or answered.
       */
      acceptanceSecret: z.string().min(1).max(200).optional(),
      /**
       * True: an administrator accepts for the invitee (no secret; `actor` required, recorded as accepted
       * on behalf). The web adapter asks its own policy for it.
       */
      onBehalf: z.boolean().optional(),
    })
    .strict(),
  z.object({ command: z.literal('add-member'), ...common, ...principal, roles }).strict(),
  z.object({ command: z.literal('change-roles'), ...common, ...principal, roles }).strict(),
  z.object({ command: z.literal('remove-member'), ...common, ...principal }).strict(),
  z
    .object({
      command: z.literal('suspend-member'),
      ...common,
      ...principal,
      reason: z.string().max(500).optional(),
    })
    .strict(),
  z.object({ command: z.literal('reactivate-member'), ...common, ...principal }).strict(),
]);

export type TenantAdministrationWorkflowRequest = z.input<typeof tenantAdministrationWorkflowRequestSchema>;
export type ParsedAdministrationRequest = z.output<typeof tenantAdministrationWorkflowRequestSchema>;
