import { isRecord, ownProperty } from '@corekit/callback-kit';

export const snsMessageTypes = [
  'Notification',
  'SubscriptionConfirmation',
  'UnsubscribeConfirmation',
] as const;
export type SnsMessageType = (typeof snsMessageTypes)[number];

/** An SNS HTTP(S) delivery envelope, every field as received. */
export interface SnsEnvelope {
  readonly Type: SnsMessageType;
  readonly MessageId: string;
  readonly TopicArn: string;
  readonly Message: string;
  readonly Timestamp: string;
  readonly SignatureVersion: string;
  readonly Signature: string;
  readonly SigningCertURL: string;
  readonly Subject?: string;
  readonly Token?: string;
  readonly SubscribeURL?: string;
  readonly UnsubscribeURL?: string;
}

/** True when the JSON looks like an SNS envelope at all (a `Type` plus a `TopicArn`); otherwise a raw SES event. */
export function looksLikeEnvelope(body: unknown): boolean {
  return (
    isRecord(body) &&
    typeof ownProperty(body, 'Type') === 'string' &&
    ownProperty(body, 'TopicArn') !== undefined
  );
}

/**
 * Reads an envelope strictly: every field the type signs must be a string, the type must be one of the
 * three. Answers the reason otherwise (`missing-signature`, `malformed`).
 */
export function readEnvelope(body: unknown): SnsEnvelope | 'missing-signature' | 'malformed' {
  if (!isRecord(body)) return 'malformed';
  const field = (name: string) => ownProperty(body, name);
  const type = field('Type');
  if (typeof type !== 'string' || !(snsMessageTypes as readonly string[]).includes(type)) return 'malformed';
  if (
    field('Signature') === undefined ||
    field('SigningCertURL') === undefined ||
    field('SignatureVersion') === undefined
  )
    return 'missing-signature';
  const required = [
    'MessageId',
    'TopicArn',
    'Message',
    'Timestamp',
    'SignatureVersion',
    'Signature',
    'SigningCertURL',
  ];
  if (type !== 'Notification') required.push('Token', 'SubscribeURL');
  for (const name of required)
    if (typeof field(name) !== 'string' || (field(name) as string).length > 262_144) return 'malformed';
  for (const name of ['Subject', 'UnsubscribeURL', 'Token', 'SubscribeURL'])
    if (field(name) !== undefined && typeof field(name) !== 'string') return 'malformed';
  return body as unknown as SnsEnvelope;
}

/**
 * The exact string SNS signs: for each key in order, when present, `Key\nValue\n`. Notification: Message,
 * MessageId, Subject, Timestamp, TopicArn, Type. SubscriptionConfirmation **and** UnsubscribeConfirmation:
 * Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type. UnsubscribeURL is never signed.
 */
export function snsStringToSign(envelope: SnsEnvelope): string {
  const keys =
    envelope.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  let text = '';
  for (const key of keys) {
    const value = (envelope as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string') text += `${key}\n${value}\n`;
  }
  return text;
}

const snsHost = /^sns\.[a-zA-Z0-9-]{3,}\.amazonaws\.com(\.cn)?$/;

/**
 * A signing-certificate URL SNS may use: `https:`, default port, no credentials, host
 * `sns.<region>.amazonaws.com(.cn)`, path ending `.pem`. Undefined otherwise.
 */
export function validCertificateUrl(text: string): URL | undefined {
  const url = parse(text);
  if (!url || !snsHost.test(url.hostname) || !url.pathname.endsWith('.pem') || url.search || url.hash)
    return undefined;
  return url;
}

/**
 * A subscribe URL SNS may send: `https:` on an SNS host, `Action=ConfirmSubscription`, the envelope's topic
 * and token. Undefined otherwise (the URL is then never invoked).
 */
export function validSubscribeUrl(text: string | undefined, envelope: SnsEnvelope): URL | undefined {
  const url = text === undefined ? undefined : parse(text);
  if (!url || !snsHost.test(url.hostname) || url.hash) return undefined;
  const query = url.searchParams;
  if (query.get('Action') !== 'ConfirmSubscription') return undefined;
  if (query.get('TopicArn') !== envelope.TopicArn || query.get('Token') !== envelope.Token) return undefined;
  return url;
}

function parse(text: string): URL | undefined {
  if (text.length > 2048) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' || url.username || url.password || (url.port && url.port !== '443'))
      return undefined;
    return url;
  } catch {
    return undefined;
  }
}
