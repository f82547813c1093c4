import { z } from 'zod';
import { checkTemplates, renderInvitationMessage, senderBaseShape } from './index';

const invitation = { tenantId: 'acme', invitationId: 'inv-1', roles: ['member'] };
const secret = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWpr';

it('places the acceptance secret and the acceptance URL (values URL-encoded) into subject, text and HTML', () => {
  const message = renderInvitationMessage(
    {
      SubjectTemplate: 'Join {tenantId}',
      TextBodyTemplate: 'Code {acceptanceSecret} or open {acceptanceUrl}',
      HtmlBodyTemplate: '<a href="{acceptanceUrl}">Accept</a>',
      AcceptanceUrlTemplate: 'https://app.example/accept?t={tenantId}&i={invitationId}&s={acceptanceSecret}',
    },
    { invitation: { ...invitation, tenantId: 'a b' }, acceptanceSecret: secret },
  );
  const url = `https://app.example/accept?t=a%20b&i=inv-1&s=${secret}`;
  expect(message).toEqual({
    subject: 'Join a b',
    text: `Code ${secret} or open ${url}`,
    html: `<a href="${url}">Accept</a>`,
  });
});

it('the default text carries the acceptance secret; the URL template must be an http(s) URL carrying the secret', () => {
  const schema = z.object(senderBaseShape('kit'));
  const defaults = schema.parse({});
  expect(renderInvitationMessage(defaults, { invitation, acceptanceSecret: secret }).text).toContain(secret);
  expect(schema.safeParse({ AcceptanceUrlTemplate: 'https://app.example/accept' }).success).toBe(false);
  expect(schema.safeParse({ AcceptanceUrlTemplate: 'ftp://x/{acceptanceSecret}' }).success).toBe(false);
  expect(schema.safeParse({ AcceptanceUrlTemplate: 'https://x/a?s={acceptanceSecret}' }).success).toBe(true);
});

it('a template using {acceptanceUrl} without AcceptanceUrlTemplate is a problem naming the key path', () => {
  const path = 'Engine:MultiTenancy:Governance:KitInvitationDelivery';
  expect(checkTemplates(path, { SubjectTemplate: 'Join', TextBodyTemplate: 'Open {acceptanceUrl}' })).toEqual(
    [`${path}:TextBodyTemplate uses {acceptanceUrl}, so ${path}:AcceptanceUrlTemplate must be set`],
  );
  expect(
    checkTemplates(path, {
      SubjectTemplate: 'Join',
      TextBodyTemplate: 'Open {acceptanceUrl}',
      AcceptanceUrlTemplate: 'https://x/{acceptanceSecret}',
    }),
  ).toEqual([]);
});
