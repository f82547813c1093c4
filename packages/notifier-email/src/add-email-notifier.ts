import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  defineNotifier,
  notifierOutcome,
  type NotifierOutcome,
  type NotifierTarget,
} from '@corekit/notifier-kit';
import {
  apiBaseUrlField,
  displayNameField,
  fromAddressField,
  messageLabelList,
  notPlaceholder,
  statusCodeList,
  type EmailSendOutcome,
  type EmailTransport,
} from '@corekit/sender-kit';
import { createMailgunTransport, mailgunJsClient } from '@corekit/sender-mailgun';
import { createSendGridTransport, sendGridMailClient } from '@corekit/sender-sendgrid';
import { createSmtpTransport, nodemailerClient } from '@corekit/sender-smtp';
import { renderAlertEmail } from './email-notification';

/** The SMTP relay of a target (the SMTP invitation sender's transport settings). */
const smtpShape = z.object({
  Host: notPlaceholder(z.string().trim()).pipe(
    z.string().regex(/^[A-Za-z0-9.:-]{1,253}$/, 'must be a host name or IP address'),
  ),
  Port: z.number().int().min(1).max(65_535).default(587),
  /** TLS from the first byte (465); false sends in clear and upgrades with STARTTLS when offered. */
  UseSsl: z.boolean().default(false),
  UserName: z.string().min(1).max(256).optional(),
  /** With UserName; a `<SECRET>` placeholder is a startup error; redacted everywhere. */
  Password: secretString('the SMTP relay password').optional(),
  /** Right-hand side of the Message-Id; default the FromAddress domain. */
  MessageIdDomain: z
    .string()
    .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/, 'must be a domain name')
    .optional(),
});

/** The SendGrid account of a target (the SendGrid invitation sender's transport settings). */
const sendGridShape = z.object({
  /** API base; the EU region is `https://api.eu.sendgrid.com`. */
  BaseUrl: apiBaseUrlField('https://api.sendgrid.com'),
  /** Required; `<API_KEY>` is a startup error; redacted everywhere. */
  ApiKey: secretString('the SendGrid API key'),
  Categories: messageLabelList(255),
  EnableSandboxMode: z.boolean().default(false),
  ProviderMessageIdHeaderName: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,100}$/)
    .default('X-Message-Id'),
  AcceptedStatusCodes: statusCodeList().min(1).default([202]),
});

/** The Mailgun domain of a target (the Mailgun invitation sender's transport settings). */
const mailgunShape = z.object({
  /** API base; the EU region is `https://api.eu.mailgun.net`. */
  BaseUrl: apiBaseUrlField('https://api.mailgun.net'),
  /** The sending domain: requests go to `/v3/{DomainName}/messages`. */
  DomainName: notPlaceholder(z.string().trim()).pipe(
    z.string().regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be a domain name'),
  ),
  /** Required; `<API_KEY>` is a startup error; redacted everywhere. */
  ApiKey: secretString('the Mailgun API key'),
  Tags: messageLabelList(128),
  EnableTestMode: z.boolean().default(false),
  ProviderMessageIdJsonPropertyName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('id'),
  AcceptedStatusCodes: statusCodeList().min(1).default([200]),
});

/** The fields of one email target (besides Id, DisplayName, MinimumSeverity, SendResolved, TimeoutSeconds). */
export const emailTargetShape = {
  /** Which transport sends: `Smtp`, `SendGrid` or `Mailgun` (the section of the same name holds its settings). */
  Provider: z.enum(['Smtp', 'SendGrid', 'Mailgun']),
  /** The sender address (a verified sender for SendGrid). */
  FromAddress: fromAddressField(),
  FromName: displayNameField(),
  /** The one recipient (an on-call list address); add targets for more. */
  To: fromAddressField(),
  Smtp: smtpShape.optional(),
  SendGrid: sendGridShape.optional(),
  Mailgun: mailgunShape.optional(),
};

type EmailTarget = NotifierTarget<typeof emailTargetShape>;
const providers = ['Smtp', 'SendGrid', 'Mailgun'] as const;

/** The transport a target's Provider selects, with the client timeout at the target's TimeoutSeconds. */
export function emailTransportOf(target: EmailTarget, timeoutMs: number): EmailTransport {
  if (target.Provider === 'Smtp') {
    const smtp = target.Smtp!;
    return createSmtpTransport(smtp, nodemailerClient(smtp, { timeoutMs }));
  }
  if (target.Provider === 'Mailgun') {
    const mailgun = target.Mailgun!;
    return createMailgunTransport(mailgun, mailgunJsClient(mailgun, timeoutMs));
  }
  const sendGrid = target.SendGrid!;
  return createSendGridTransport(sendGrid, sendGridMailClient(sendGrid, timeoutMs));
}

/** A transport outcome as the alerts pack records it (the reason is the transport's safe code). */
export function notifierOutcomeOf(outcome: EmailSendOutcome): NotifierOutcome {
  if (outcome.outcome === 'delivered') return notifierOutcome.delivered(outcome.responseCode);
  if (outcome.outcome === 'retryable')
    return notifierOutcome.retryable(outcome.reason, outcome.responseCode, outcome.retryAfterMs);
  return notifierOutcome.terminal(outcome.reason, outcome.responseCode);
}

/**
 * Registers email targets from `Engine:Alerts:Notifiers:Email:Targets`: each notification is one email (subject
 * `[FIRING] <service>: <n> alerts (<severity>)`, plain text and HTML) handed to the transport the target's
 * Provider selects: an SMTP relay (a 4xx reply is retried, a 5xx or refused credentials terminal), SendGrid or
 * Mailgun (429 and 5xx retried, with Retry-After when the client reports it; any other 4xx terminal). The same
 * transports the invitation senders use.
 */
export const addEmailNotifier = defineNotifier({
  kind: 'Email',
  packageName: '@corekit/notifier-email',
  targetShape: emailTargetShape,
  validateTarget: (target, issue) => {
    const own = target.Provider;
    if (!target[own]) issue(own, `must be set when Provider is ${own}`);
    for (const other of providers.filter((provider) => provider !== own))
      if (target[other]) issue(other, `is not used when Provider is ${own}; remove it`);
    if (target.Smtp?.UserName && !target.Smtp.Password)
      issue('Smtp:Password', 'must be set when UserName is set');
  },
  describeTarget: (target) => {
    if (target.Provider === 'Smtp') return `smtp ${target.Smtp!.Host}:${target.Smtp!.Port}`;
    const settings = target.Provider === 'Mailgun' ? target.Mailgun! : target.SendGrid!;
    return `${target.Provider.toLowerCase()} ${new URL(settings.BaseUrl).host}`;
  },
  secretValues: (target) => [
    target.Smtp?.Password ?? '',
    target.SendGrid?.ApiKey ?? '',
    target.Mailgun?.ApiKey ?? '',
  ],
  send: async (notification, target, { signal, timeoutMs }) => {
    const email = renderAlertEmail(notification);
    const transport = emailTransportOf(target, timeoutMs);
    const outcome = await transport.send(
      {
        from: { address: target.FromAddress, name: target.FromName },
        to: target.To,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: email.messageId,
        headers: email.headers,
        variables: {
          core_incident_id: notification.incidentId,
          core_notification_id: notification.notificationId,
        },
      },
      signal,
    );
    return notifierOutcomeOf(outcome);
  },
});
