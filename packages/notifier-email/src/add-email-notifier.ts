import { defineNotifier, notifierOutcome, type NotifierOutcome } from '@corekit/notifier-kit';
import type { EmailSendOutcome, EmailTransport } from '@corekit/email-kit';
import { renderAlertEmail } from './email-notification';
import { emailProviders, emailTargetShape } from './email-target-shape';
import { emailTargetHost, emailTransportOf, type EmailTarget } from './email-transports';

/**
 * One transport per target, built at its first send and kept: the SES client's connections and the Graph token
 * (kept until five minutes before it expires) serve every later notification of the target.
 */
const transports = new WeakMap<EmailTarget, EmailTransport>();

function transportFor(target: EmailTarget, timeoutMs: number): EmailTransport {
  let transport = transports.get(target);
  if (!transport) transports.set(target, (transport = emailTransportOf(target, timeoutMs)));
  return transport;
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
 * Provider selects: an SMTP relay (a 4xx reply is retried, a 5xx or refused credentials terminal), SendGrid,
 * Mailgun, Amazon SES v2 or Microsoft Graph sendMail (429 and 5xx retried, with Retry-After when the client
 * reports it; any other 4xx terminal; a Graph token that cannot be had is retried). The same transports the
 * invitation senders use.
 */
export const addEmailNotifier = defineNotifier({
  kind: 'Email',
  packageName: '@corekit/notifier-email',
  targetShape: emailTargetShape,
  validateTarget: (target, issue) => {
    const own = target.Provider;
    if (!target[own]) issue(own, `must be set when Provider is ${own}`);
    for (const other of emailProviders.filter((provider) => provider !== own))
      if (target[other]) issue(other, `is not used when Provider is ${own}; remove it`);
    if (target.Smtp?.UserName && !target.Smtp.Password)
      issue('Smtp:Password', 'must be set when UserName is set');
    const ses = target.AmazonSes;
    if (ses?.AccessKeyId && !ses.SecretAccessKey)
      issue('AmazonSes:SecretAccessKey', 'must be set when AccessKeyId is set');
    if (ses?.SecretAccessKey && !ses.AccessKeyId)
      issue('AmazonSes:AccessKeyId', 'must be set when SecretAccessKey is set');
    if (ses?.SessionToken && !ses.AccessKeyId)
      issue(
        'AmazonSes:SessionToken',
        'is used with AccessKeyId and SecretAccessKey only; set them or remove it',
      );
  },
  describeTarget: (target) => `${target.Provider.toLowerCase()} ${emailTargetHost(target)}`,
  secretValues: (target) => [
    target.Smtp?.Password ?? '',
    target.SendGrid?.ApiKey ?? '',
    target.Mailgun?.ApiKey ?? '',
    target.AmazonSes?.SecretAccessKey ?? '',
    target.AmazonSes?.SessionToken ?? '',
    target.MicrosoftGraph?.ClientSecret ?? '',
  ],
  send: async (notification, target, { signal, timeoutMs }) => {
    const email = renderAlertEmail(notification);
    const transport = transportFor(target, timeoutMs);
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
