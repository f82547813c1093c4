import { secretString } from '@corekit/abstractions';
import {
  apiBaseUrlField,
  displayNameField,
  fromAddressField,
  headerMap,
  messageLabelList,
  messageVariablesField,
  notPlaceholder,
  senderBaseShape,
  statusCodeList,
} from '@corekit/sender-kit';
import { z } from 'zod';

/** `Engine:MultiTenancy:Governance:MailgunInvitationDelivery` (spec 2.6, provider MSG). */
export const mailgunSenderOptionsSchema = z.object({
  ...senderBaseShape('mailgun'),
  /** API base; the EU region is `https://api.eu.mailgun.net`. */
  BaseUrl: apiBaseUrlField('https://api.mailgun.net'),
  /** The sending domain: requests go to `/v3/{DomainName}/messages`. Required. */
  DomainName: notPlaceholder(z.string().trim()).pipe(
    z.string().regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be a domain name'),
  ),
  /** Required; `<API_KEY>` is a startup error; redacted from every log. */
  ApiKey: secretString(),
  /** Added to the spec's row: the sender address. */
  FromAddress: fromAddressField(),
  FromName: displayNameField(),
  /** `o:tag` values, at most 10. */
  Tags: messageLabelList(128),
  /** Extra `v:*` user variables; the delivery context keys win over them. */
  Variables: messageVariablesField(),
  /** Extra `h:*` headers. */
  Headers: headerMap(),
  /** Adds `o:testmode=yes`: Mailgun accepts but does not deliver. */
  EnableTestMode: z.boolean().default(false),
  ProviderMessageIdJsonPropertyName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('id'),
  AcceptedStatusCodes: statusCodeList().min(1).default([200]),
});

export type MailgunSenderOptions = z.output<typeof mailgunSenderOptionsSchema>;
export type MailgunSenderOptionsInput = z.input<typeof mailgunSenderOptionsSchema>;
