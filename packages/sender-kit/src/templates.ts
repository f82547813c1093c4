import type { InvitationSendRequest, TenantInvitation } from '@corekit/tenant-governance';

/** The values a template may use. */
export interface TemplateValues {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly roles: readonly string[];
  /** The single-use acceptance secret of this message (`{acceptanceSecret}`). */
  readonly acceptanceSecret?: string;
  /** `AcceptanceUrlTemplate` rendered for this message (`{acceptanceUrl}`). */
  readonly acceptanceUrl?: string;
}

const placeholder = /\{(tenantId|invitationId|roles|acceptanceSecret|acceptanceUrl)\}/g;

/**
 * Replaces `{tenantId}`, `{invitationId}`, `{roles}` (comma-separated), `{acceptanceSecret}` and
 * `{acceptanceUrl}` in `template`; a placeholder without a value and any other text, braces included, are
 * kept as written. No escaping: ids and role names are restricted to URL-safe characters by the governance
 * validation, and the secret is base64url.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(placeholder, (match, name: keyof TemplateValues) => {
    const value = values[name];
    if (value === undefined) return match;
    return Array.isArray(value) ? value.join(', ') : (value as string);
  });
}

/** The placeholders of `AcceptanceUrlTemplate`, each value URL-encoded. */
export function renderAcceptanceUrl(template: string, values: TemplateValues): string {
  const encoded = {
    tenantId: encodeURIComponent(values.tenantId),
    invitationId: encodeURIComponent(values.invitationId),
    roles: [encodeURIComponent(values.roles.join(','))],
    ...(values.acceptanceSecret !== undefined
      ? { acceptanceSecret: encodeURIComponent(values.acceptanceSecret) }
      : {}),
  };
  return renderTemplate(template, encoded);
}

/** The templates of a sender section (`senderBaseShape`). */
export interface InvitationTemplates {
  readonly SubjectTemplate: string;
  readonly TextBodyTemplate: string;
  readonly HtmlBodyTemplate?: string | undefined;
  readonly AcceptanceUrlTemplate?: string | undefined;
}

/**
 * Subject, text and (when configured) HTML of one invitation message: the one renderer every sender uses.
 * The message is the only place the attempt's acceptance secret goes (`{acceptanceSecret}`, and
 * `{acceptanceUrl}` when `AcceptanceUrlTemplate` is set); nothing here records it.
 */
export function renderInvitationMessage(
  templates: InvitationTemplates,
  message: {
    readonly invitation: Pick<TenantInvitation, 'tenantId' | 'invitationId' | 'roles'>;
    readonly acceptanceSecret?: InvitationSendRequest['acceptanceSecret'];
  },
): { subject: string; text: string; html: string | null } {
  const { tenantId, invitationId, roles } = message.invitation;
  const base: TemplateValues = {
    tenantId,
    invitationId,
    roles,
    ...(message.acceptanceSecret !== undefined ? { acceptanceSecret: message.acceptanceSecret } : {}),
  };
  const values: TemplateValues = templates.AcceptanceUrlTemplate
    ? { ...base, acceptanceUrl: renderAcceptanceUrl(templates.AcceptanceUrlTemplate, base) }
    : base;
  return {
    subject: renderTemplate(templates.SubjectTemplate, values),
    text: renderTemplate(templates.TextBodyTemplate, values),
    html: templates.HtmlBodyTemplate ? renderTemplate(templates.HtmlBodyTemplate, values) : null,
  };
}
