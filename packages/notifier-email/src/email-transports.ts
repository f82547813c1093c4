import type { NotifierTarget } from '@corekit/notifier-kit';
import type { EmailTransport } from '@corekit/email-kit';
import {
  clientCredentialsTokenProvider,
  createGraphTransport,
  defaultGraphScope,
  graphSdkClient,
} from '@corekit/email-graph';
import { createMailgunTransport, mailgunJsClient } from '@corekit/email-mailgun';
import { createSendGridTransport, sendGridMailClient } from '@corekit/email-sendgrid';
import { createSesTransport, sesV2Client } from '@corekit/email-ses';
import { createSmtpTransport, nodemailerClient } from '@corekit/email-smtp';
import type { emailTargetShape } from './email-target-shape';

export type EmailTarget = NotifierTarget<typeof emailTargetShape>;
type AmazonSesSettings = NonNullable<EmailTarget['AmazonSes']>;

/** The SES v2 client of a target: its endpoint override and static credentials, else the SDK's default chain. */
function amazonSesTransport(settings: AmazonSesSettings): EmailTransport {
  const credentials =
    settings.AccessKeyId && settings.SecretAccessKey
      ? {
          accessKeyId: settings.AccessKeyId,
          secretAccessKey: settings.SecretAccessKey,
          ...(settings.SessionToken ? { sessionToken: settings.SessionToken } : {}),
        }
      : undefined;
  const client = sesV2Client(settings, {
    ...(settings.BaseUrl ? { endpoint: settings.BaseUrl } : {}),
    ...(credentials ? { credentials } : {}),
  });
  return createSesTransport(settings, client);
}

/** The Graph transport of a target: `/users/{SenderUserId or FromAddress}/sendMail` with client-credentials tokens. */
function microsoftGraphTransport(target: EmailTarget): EmailTransport {
  const settings = target.MicrosoftGraph!;
  const tokens = clientCredentialsTokenProvider({
    AuthorityHost: settings.AuthorityHost,
    TenantId: settings.TenantId,
    ClientId: settings.ClientId,
    ClientSecret: settings.ClientSecret,
    Scopes: settings.Scopes ?? [defaultGraphScope(settings.BaseUrl)],
  });
  return createGraphTransport(
    { ...settings, SenderUserId: settings.SenderUserId ?? target.FromAddress },
    graphSdkClient(settings.BaseUrl, settings.ApiVersion),
    tokens,
  );
}

/** The transport a target's Provider selects, with the client timeout at the target's TimeoutSeconds. */
export function emailTransportOf(target: EmailTarget, timeoutMs: number): EmailTransport {
  switch (target.Provider) {
    case 'Smtp':
      return createSmtpTransport(target.Smtp!, nodemailerClient(target.Smtp!, { timeoutMs }));
    case 'SendGrid':
      return createSendGridTransport(target.SendGrid!, sendGridMailClient(target.SendGrid!, timeoutMs));
    case 'Mailgun':
      return createMailgunTransport(target.Mailgun!, mailgunJsClient(target.Mailgun!, timeoutMs));
    case 'AmazonSes':
      return amazonSesTransport(target.AmazonSes!);
    case 'MicrosoftGraph':
      return microsoftGraphTransport(target);
  }
}

/** The host a target sends to, for its safe label (`amazonses email.eu-west-1.amazonaws.com`). */
export function emailTargetHost(target: EmailTarget): string {
  switch (target.Provider) {
    case 'Smtp':
      return `${target.Smtp!.Host}:${target.Smtp!.Port}`;
    case 'AmazonSes': {
      const ses = target.AmazonSes!;
      return ses.BaseUrl ? new URL(ses.BaseUrl).host : `email.${ses.RegionSystemName}.amazonaws.com`;
    }
    default:
      return new URL(target[target.Provider]!.BaseUrl!).host;
  }
}
