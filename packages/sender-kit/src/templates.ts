import type { TenantInvitation } from '@corekit/tenant-governance';

/** The values a template may use. */
export interface TemplateValues {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly roles: readonly string[];
}

/**
 * Replaces `{tenantId}`, `{invitationId}` and `{roles}` (comma-separated) in `template`; any other text,
 * braces included, is kept as written. No escaping: HTML templates get ids and role names, which are
 * already restricted to URL-safe characters by the governance validation.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{(tenantId|invitationId|roles)\}/g, (_match, name: string) =>
    name === 'roles' ? values.roles.join(', ') : name === 'tenantId' ? values.tenantId : values.invitationId,
  );
}

/** Subject, text and (when configured) HTML of an invitation message. */
export function renderInvitationMessage(
  templates: { SubjectTemplate: string; TextBodyTemplate: string; HtmlBodyTemplate?: string | undefined },
  invitation: Pick<TenantInvitation, 'tenantId' | 'invitationId' | 'roles'>,
): { subject: string; text: string; html: string | null } {
  return {
    subject: renderTemplate(templates.SubjectTemplate, invitation),
    text: renderTemplate(templates.TextBodyTemplate, invitation),
    html: templates.HtmlBodyTemplate ? renderTemplate(templates.HtmlBodyTemplate, invitation) : null,
  };
}
