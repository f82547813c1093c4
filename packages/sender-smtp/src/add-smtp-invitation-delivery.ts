import {
  defineInvitationDelivery,
  type InvitationDeliveryFunction,
  senderEventIds,
} from '@corekit/sender-kit';
import type { ConnectionOptions } from 'node:tls';
import { smtpSenderOptionsSchema, type SmtpSenderOptions, type SmtpSenderOptionsInput } from './smtp-options';
import { createSmtpSend, smtpTlsPosture, type SmtpClient } from './smtp-sender';
import { nodemailerClient } from '@corekit/email-smtp';

/** Event ids of the SMTP delivery (runtime-operations 6: 4558-4559). */
export const smtpSenderEventIds = { registered: 4558, completed: 4559 } as const;

/** Code-only seams: a replacement client, or extra TLS options for the default nodemailer transport (test CA). */
export interface SmtpInvitationDeliveryExtensions {
  readonly client?: SmtpClient;
  readonly tls?: ConnectionOptions;
  /** Connection, greeting and socket timeouts of the default transport (default 30000 ms). */
  readonly timeoutMs?: number;
}

/**
 * Registers the SMTP relay sender (`Engine:MultiTenancy:Governance:SmtpInvitationDelivery`) after
 * `addTenantGovernanceDelivery`. A relay's acceptance is a hand-off, not a delivery: bounces come later,
 * by mail, and are not read here.
 */
export const addSmtpInvitationDelivery: InvitationDeliveryFunction<
  SmtpSenderOptions,
  SmtpSenderOptionsInput,
  SmtpInvitationDeliveryExtensions
> = defineInvitationDelivery({
  packageName: '@corekit/sender-smtp',
  entry: 'addSmtpInvitationDelivery',
  section: 'Engine:MultiTenancy:Governance:SmtpInvitationDelivery',
  schema: smtpSenderOptionsSchema,
  eventIds: senderEventIds('Tenant governance, SMTP delivery', 'smtp', smtpSenderEventIds),
  recipientMetadataKey: (settings) => settings.RecipientAddressMetadataKey,
  describe: (settings) =>
    `relay ${settings.Host}:${settings.Port}, ${smtpTlsPosture(settings)}, authenticated ${Boolean(settings.UserName)}`,
  create: (settings, extensions) =>
    createSmtpSend(settings, extensions.client ?? nodemailerClient(settings, extensions)),
});
