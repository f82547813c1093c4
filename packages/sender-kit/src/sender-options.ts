import { z } from 'zod';

// The provider field schemas every email transport's settings use live in @corekit/email-kit; the senders reach
// them here too.
export {
  apiBaseUrlField,
  displayNameField,
  endpointUrl,
  fromAddressField,
  messageLabelList,
  notPlaceholder,
  statusCodeList,
} from '@corekit/email-kit';

const channel = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a channel name (a-z, 0-9, . _ -)');

/**
 * The fields every sender section shares (spec 2.6): spread into a sender package's schema with
 * `z.object({ ...senderBaseShape('smtp'), Host: ... })`. Templates accept `{tenantId}`, `{invitationId}`,
 * `{roles}`, `{acceptanceSecret}` (the message's single-use acceptance secret) and `{acceptanceUrl}`
 * (`AcceptanceUrlTemplate` rendered); other braces are left as written.
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
      .default(
        'You have been invited to {tenantId} with the roles {roles}. Invitation {invitationId}. Your acceptance code: {acceptanceSecret}',
      ),
    /** Where listed by the spec; omit for text-only mail. */
    HtmlBodyTemplate: z.string().min(1).max(100_000).optional(),
    /**
     * The link a message offers for acceptance (`{acceptanceUrl}` in the other templates): an absolute
     * http(s) URL of the host's acceptance page that must carry `{acceptanceSecret}`; may use `{tenantId}`,
     * `{invitationId}` and `{roles}` too. Values are URL-encoded. No default: without it, templates may not
     * use `{acceptanceUrl}`.
     */
    AcceptanceUrlTemplate: z
      .string()
      .max(2000)
      .regex(/^https?:\/\/[^\s]+$/, 'must be an absolute http(s) URL without spaces')
      .refine((value) => value.includes('{acceptanceSecret}'), 'must contain {acceptanceSecret}')
      .optional(),
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
  readonly AcceptanceUrlTemplate?: string | undefined;
  readonly RecipientEmailMetadataKey: string;
}

/**
 * The problems of a section's templates: `{acceptanceUrl}` used while `AcceptanceUrlTemplate` is unset
 * (the placeholder would reach the invitee unrendered). Names the key path.
 */
export function checkTemplates(
  path: string,
  templates: Pick<
    SenderBaseOptions,
    'SubjectTemplate' | 'TextBodyTemplate' | 'HtmlBodyTemplate' | 'AcceptanceUrlTemplate'
  >,
): string[] {
  if (templates.AcceptanceUrlTemplate) return [];
  return (['SubjectTemplate', 'TextBodyTemplate', 'HtmlBodyTemplate'] as const)
    .filter((key) => templates[key]?.includes('{acceptanceUrl}'))
    .map((key) => `${path}:${key} uses {acceptanceUrl}, so ${path}:AcceptanceUrlTemplate must be set`);
}

/** The section every sender sub-section lives under (`Engine:MultiTenancy:Governance:<Provider>InvitationDelivery`). */
export const governanceSectionPath = 'Engine:MultiTenancy:Governance';

/** Header names a sender never lets configuration set: credentials, framing and routing headers. */
const reservedHeaders =
  /^(authorization|proxy-authorization|cookie|set-cookie|host|content-length|content-type|transfer-encoding|connection|upgrade|te|trailer|x-api-key|api-key)$/i;
const tokenName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/** True when a header name is a plain token and not reserved (credentials, framing, routing). */
export function isSafeHeaderName(name: string): boolean {
  return tokenName.test(name) && !reservedHeaders.test(name);
}

/**
 * A `Headers` map (spec 2.6): string to string. Names and values are checked after binding by
 * `addInvitationSender` (`checkHeaderMap`), so a refused value is never echoed in the startup error.
 */
export const headerMap = () => z.record(z.string(), z.string()).default({});

/**
 * The problems of a `Headers` map: token names other than credential, framing and routing headers
 * (Authorization, Cookie, Host, Content-Length...), values without control characters and at most 1000
 * characters, at most `maxEntries` (default 20) names, each starting with `prefix` when given (Graph: `x-`).
 * Problems name the key path, never the value.
 */
export function checkHeaderMap(
  path: string,
  headers: Readonly<Record<string, string>>,
  options: { maxEntries?: number; prefix?: string } = {},
): string[] {
  const problems: string[] = [];
  const maxEntries = options.maxEntries ?? 20;
  if (Object.keys(headers).length > maxEntries)
    problems.push(`${path} must have at most ${maxEntries} entries`);
  for (const [name, value] of Object.entries(headers)) {
    if (!isSafeHeaderName(name))
      problems.push(
        `${path}:${name} must be a header token name other than a credential, framing or routing header`,
      );
    else if (options.prefix && !name.toLowerCase().startsWith(options.prefix))
      problems.push(`${path}:${name} must start with ${options.prefix}`);
    if (value.length > 1000 || /\p{Cc}/u.test(value))
      problems.push(
        `${path}:${name} must be at most 1000 characters without control characters (value not shown)`,
      );
  }
  return problems;
}

/**
 * Extra per-message variables (custom args, user variables): names of `[A-Za-z0-9_.-]{1,100}`, string
 * values up to 1000 characters. The delivery context keys win over them.
 */
export const messageVariablesField = () =>
  z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/), z.string().max(1000)).default({});
