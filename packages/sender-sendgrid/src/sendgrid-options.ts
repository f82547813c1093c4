import { secretString } from '@corekit/abstractions';
import {
  apiBaseUrlField,
  displayNameField,
  fromAddressField,
  headerMap,
  messageLabelList,
  messageVariablesField,
  senderBaseShape,
  statusCodeList,
} from '@corekit/sender-kit';
import { z } from 'zod';

/** `Engine:MultiTenancy:Governance:SendGridInvitationDelivery` (spec 2.6, provider SEND). */
export const sendGridSenderOptionsSchema = z.object({
  ...senderBaseShape('sendgrid'),
  /** API base; the EU region is `https://api.eu.sendgrid.com`. */
  BaseUrl: apiBaseUrlField('https://api.sendgrid.com'),
  /** Required; `<API_KEY>` is a startup error; redacted from every log. */
  ApiKey: secretString(),
  /** Added to the spec's row: the sender address (a verified SendGrid sender). */
  FromAddress: fromAddressField(),
  FromName: displayNameField(),
  Categories: messageLabelList(255),
  /** Extra custom args (string values); the delivery context keys win over them. */
  CustomArgs: messageVariablesField(),
  Headers: headerMap(),
  /** Adds `mail_settings.sandbox_mode.enable: true` and accepts the 200 validation answer. */
  EnableSandboxMode: z.boolean().default(false),
  ProviderMessageIdHeaderName: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,100}$/)
    .default('X-Message-Id'),
  AcceptedStatusCodes: statusCodeList().min(1).default([202]),
});

export type SendGridSenderOptions = z.output<typeof sendGridSenderOptionsSchema>;
export type SendGridSenderOptionsInput = z.input<typeof sendGridSenderOptionsSchema>;
