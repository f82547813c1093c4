import { z } from 'zod';

const channel = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a channel name (a-z, 0-9, . _ -)');

/**
 * The fields every sender section shares (spec 2.6): spread into a sender package's schema with
 * `z.object({ ...senderBaseShape('smtp'), Host: ... })`. Templates accept `{tenantId}`, `{invitationId}`
 * and `{roles}`; other braces are left as written.
 */
export function senderBaseShape(defaultSenderId: string) {
  return {
    /** Register the sender. Default true (the registration call is the opt-in). */
    Enabled: z.boolean().default(true),
    /** Stable sender id in outcomes, run state and the retry key. */
    SenderId: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be lower case: a-z, 0-9, . _ -')
      .default(defaultSenderId),
    /** Channels served; any other channel is suppressed as a provider-managed decision. Default `email`. */
    SupportedChannels: z.array(channel).min(1).max(20).default(['email']),
    SubjectTemplate: z.string().min(1).max(500).default('You are invited to join {tenantId}'),
    TextBodyTemplate: z
      .string()
      .min(1)
      .max(20_000)
      .default('You have been invited to {tenantId} with the roles {roles}. Invitation {invitationId}.'),
    /** Where listed by the spec; omit for text-only mail. */
    HtmlBodyTemplate: z.string().min(1).max(100_000).optional(),
    /** Metadata key holding the recipient address (dispatch metadata, then invitation metadata). Default `recipientEmail`. */
    RecipientEmailMetadataKey: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/)
      .default('recipientEmail'),
  };
}

/** The output of `senderBaseShape` fields. */
export interface SenderBaseOptions {
  readonly Enabled: boolean;
  readonly SenderId: string;
  readonly SupportedChannels: readonly string[];
  readonly SubjectTemplate: string;
  readonly TextBodyTemplate: string;
  readonly HtmlBodyTemplate?: string | undefined;
  readonly RecipientEmailMetadataKey: string;
}

/** Refuses `<PLACEHOLDER>`-looking values of fields that must be real (URLs, hosts, ids). */
export const notPlaceholder = (schema: z.ZodString) =>
  schema.refine((value) => !/^<[A-Z0-9_]+>$/.test(value.trim()), 'must be set (a <PLACEHOLDER> was left in)');

/** An absolute http(s) URL; `https` only unless `allowHttp` (local tests, private relays). */
export const endpointUrl = (allowHttp = true) =>
  z
    .string()
    .trim()
    .url('must be an absolute URL')
    .refine(
      (value) => value.startsWith('https://') || (allowHttp && value.startsWith('http://')),
      allowHttp ? 'must be an http:// or https:// URL' : 'must be an https:// URL',
    );
