import type { EngineBuilder } from '@corekit/abstractions';
import { addInvitationSender, senderEventIds } from '@corekit/sender-kit';
import nodemailer from 'nodemailer';
import type { ConnectionOptions } from 'node:tls';
import { smtpSenderOptionsSchema, type SmtpSenderOptions, type SmtpSenderOptionsInput } from './smtp-options';
import { createSmtpSend, smtpTlsPosture, type SmtpClient } from './smtp-sender';
import type { SmtpTransportSettings } from './smtp-transport';

/** Event ids of the SMTP delivery (runtime-operations 6: 4558-4559). */
export const smtpSenderEventIds = { registered: 4558, completed: 4559 } as const;

/** Code-only seams: a replacement client, or extra TLS options for the default nodemailer transport (test CA). */
export interface SmtpInvitationDeliveryExtensions {
  readonly client?: SmtpClient;
  readonly tls?: ConnectionOptions;
  /** Connection, greeting and socket timeouts of the default transport (default 30000 ms). */
  readonly timeoutMs?: number;
}

/** The default client: a nodemailer SMTP transport built from the settings (one pooled-free connection per send). */
export function nodemailerClient(
  settings: SmtpTransportSettings,
  extensions: SmtpInvitationDeliveryExtensions = {},
): SmtpClient {
  const timeout = extensions.timeoutMs ?? 30_000;
  const transport = nodemailer.createTransport({
    host: settings.Host,
    port: settings.Port,
    secure: settings.UseSsl,
    ...(settings.UserName ? { auth: { user: settings.UserName, pass: settings.Password ?? '' } } : {}),
    ...(extensions.tls ? { tls: extensions.tls } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return { sendMail: (message) => transport.sendMail(message) };
}

/**
 * Registers the SMTP relay sender (`Engine:MultiTenancy:Governance:SmtpInvitationDelivery`) after
 * `addTenantGovernanceDelivery`. A relay's acceptance is a hand-off, not a delivery: bounces come later,
 * by mail, and are not read here.
 */
export function addSmtpInvitationDelivery(
  builder: EngineBuilder,
  options?: SmtpSenderOptionsInput,
  extensions: SmtpInvitationDeliveryExtensions = {},
): SmtpSenderOptions {
  return addInvitationSender(
    builder,
    {
      packageName: '@corekit/sender-smtp',
      section: 'SmtpInvitationDelivery',
      schema: smtpSenderOptionsSchema,
      eventIds: senderEventIds('Tenant governance, SMTP delivery', 'smtp', smtpSenderEventIds),
      recipientMetadataKey: (settings) => settings.RecipientAddressMetadataKey,
      describe: (settings) =>
        `relay ${settings.Host}:${settings.Port}, ${smtpTlsPosture(settings)}, authenticated ${Boolean(settings.UserName)}`,
      create: (settings) =>
        createSmtpSend(settings, extensions.client ?? nodemailerClient(settings, extensions)),
    },
    options,
  ).settings;
}
