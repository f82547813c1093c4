import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  apiBaseUrlField,
  displayNameField,
  endpointUrl,
  fromAddressField,
  messageLabelList,
  notPlaceholder,
  statusCodeList,
} from '@corekit/email-kit';
import { authorityAliases } from '@corekit/email-graph';

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

/** The Amazon SES v2 account of a target (SendEmail, signed with SigV4 by the AWS SDK). */
const amazonSesShape = z.object({
  /** AWS region system name (`eu-west-1`): where SendEmail is called and what the signature is scoped to. */
  RegionSystemName: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be a region system name such as eu-west-1'),
  /** Configuration set (event publishing, the email tags); unset sends without. */
  ConfigurationSetName: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a configuration set name ([A-Za-z0-9_-], at most 64)')
    .optional(),
  /** Endpoint override (a VPC endpoint, a local emulator); default the region's `https://email.<region>.amazonaws.com`. */
  BaseUrl: notPlaceholder(z.string()).pipe(endpointUrl(true)).optional(),
  /** Static credentials with SecretAccessKey; unset uses the AWS SDK's default chain (environment, profile, role). */
  AccessKeyId: z
    .string()
    .regex(/^[A-Z0-9]{16,128}$/, 'must be an AWS access key id (AKIA..., ASIA...)')
    .optional(),
  /** With AccessKeyId; a `<SECRET>` placeholder is a startup error; redacted everywhere. */
  SecretAccessKey: secretString('the AWS secret access key').optional(),
  /** With temporary credentials (an `ASIA...` key id); redacted everywhere. */
  SessionToken: secretString('the AWS session token').optional(),
  AcceptedStatusCodes: statusCodeList().min(1).default([200]),
});

/** An http:// URI is accepted for loopback only (a local identity emulator): a client secret never travels in clear. */
const authorityHostField = z
  .string()
  .trim()
  .refine(
    (value) =>
      value in authorityAliases ||
      /^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(value) ||
      /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(value),
    'must be public, government, china or an absolute https:// URI',
  )
  .default('public');

/** The Microsoft Graph mailbox of a target (sendMail with an app registration's client credentials). */
const microsoftGraphShape = z.object({
  /** Graph base (national clouds: `https://graph.microsoft.us`, `https://microsoftgraph.chinacloudapi.cn`). */
  BaseUrl: apiBaseUrlField('https://graph.microsoft.com'),
  ApiVersion: z
    .string()
    .regex(/^[A-Za-z0-9.]{1,20}$/, 'must be an API version such as v1.0 or beta')
    .default('v1.0'),
  /** The mailbox that sends (`/users/{id}/sendMail`, application permission Mail.Send); default FromAddress. */
  SenderUserId: z
    .string()
    .regex(/^[A-Za-z0-9@._-]{1,200}$/, 'must be a user id or user principal name')
    .optional(),
  /** The directory (tenant) id or one of its domain names. */
  TenantId: notPlaceholder(z.string().trim()).pipe(
    z.string().regex(/^[A-Za-z0-9.-]{1,100}$/, 'must be a directory (tenant) id or domain name'),
  ),
  /** The application (client) id of the app registration. */
  ClientId: notPlaceholder(z.string().trim()).pipe(
    z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'must be an application (client) id'),
  ),
  /** Required; a `<SECRET>` placeholder is a startup error; redacted everywhere. */
  ClientSecret: secretString('the app registration client secret'),
  /** `public`, `government`, `china` or the identity platform's https:// URI. */
  AuthorityHost: authorityHostField,
  /** Default: the application-permission scope of BaseUrl's host (`https://graph.microsoft.com/.default`). */
  Scopes: z.array(z.string().min(1).max(500)).min(1).max(10).optional(),
  SaveToSentItems: z.boolean().default(false),
  Categories: messageLabelList(255),
  AcceptedStatusCodes: statusCodeList().min(1).default([202]),
});

/** The providers a target may name; each has the section of the same name. */
export const emailProviders = ['Smtp', 'SendGrid', 'Mailgun', 'AmazonSes', 'MicrosoftGraph'] as const;

/** The fields of one email target (besides Id, DisplayName, MinimumSeverity, SendResolved, TimeoutSeconds). */
export const emailTargetShape = {
  /** Which transport sends (`Smtp`, `SendGrid`, `Mailgun`, `AmazonSes`, `MicrosoftGraph`): the section of the same name holds its settings. */
  Provider: z.enum(emailProviders),
  /** The sender address (a verified sender or identity for SendGrid and SES; the default mailbox for Graph). */
  FromAddress: fromAddressField(),
  FromName: displayNameField(),
  /** The one recipient (an on-call list address); add targets for more. */
  To: fromAddressField(),
  Smtp: smtpShape.optional(),
  SendGrid: sendGridShape.optional(),
  Mailgun: mailgunShape.optional(),
  AmazonSes: amazonSesShape.optional(),
  MicrosoftGraph: microsoftGraphShape.optional(),
};
