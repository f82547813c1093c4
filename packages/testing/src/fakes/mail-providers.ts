// Local fakes of the mail providers' send APIs (PROTOCOLS.md) that record each exchange, and builders of
// each provider's status event from one recorded exchange only: what the provider echoes back, in its
// documented shape. Signing is left to the caller (each callback package has its provider's signer).
import {
  startRecordingProvider,
  type ProviderExchange,
  type PairStatus,
  type RecordingProvider,
} from '../sender-callback-pair';

function json(exchange: ProviderExchange): Record<string, any> {
  return JSON.parse(exchange.request.body) as Record<string, any>;
}

function answerBody(exchange: ProviderExchange): Record<string, any> {
  const body = exchange.response.body;
  return (typeof body === 'string' ? JSON.parse(body) : body) as Record<string, any>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** SEND: `POST /v3/mail/send` answered 202 with an `X-Message-Id` (no dots, as the provider's). */
export function startSendGridFake(): Promise<RecordingProvider> {
  return startRecordingProvider('POST /v3/mail/send', (_request, call) => ({
    status: 202,
    headers: { 'X-Message-Id': `W4Kx9sgFake${call}Q2a` },
  }));
}

/**
 * One SEND event webhook item about the exchange: the recipient, `sg_message_id` = the answered
 * X-Message-Id plus a filter suffix, and the custom args (message level, then the personalization's) as
 * top-level keys. A bounce carries `type: bounce`.
 */
export function sendGridEventFrom(
  exchange: ProviderExchange,
  status: PairStatus,
  eventId: string,
  echoContext = true,
): Record<string, unknown> {
  const body = json(exchange);
  const personalization = body.personalizations?.[0] ?? {};
  const messageId = exchange.response.headers?.['X-Message-Id'];
  return {
    email: personalization.to?.[0]?.email,
    timestamp: nowSeconds(),
    'smtp-id': `<${messageId}@ismtpd0001p1lon1.sendgrid.net>`,
    event: status === 'delivered' ? 'delivered' : 'bounce',
    ...(status === 'bounced' ? { type: 'bounce', reason: '550 5.1.1 unknown user' } : {}),
    category: body.categories ?? [],
    sg_event_id: eventId,
    sg_message_id: `${messageId}.filterdrecv-5645d9c87f-6rbhx-1-5F3AB8F7-1.0`,
    ...(echoContext ? { ...body.custom_args, ...personalization.custom_args } : {}),
  };
}

/** MSG: `POST /v3/{domain}/messages` answered `{ id: "<...@domain>", message }`. */
export function startMailgunFake(domain: string): Promise<RecordingProvider> {
  return startRecordingProvider(`POST /v3/${domain}/messages`, (_request, call) => ({
    status: 200,
    body: { id: `<20300101000000.${call}.F4KE@${domain}>`, message: 'Queued. Thank you.' },
  }));
}

/** The multipart fields of a recorded request (repeated fields keep every value). */
export async function formFieldsOf(request: ProviderExchange['request']): Promise<Record<string, string[]>> {
  const form = await new Response(request.body, {
    headers: { 'content-type': String(request.headers['content-type']) },
  }).formData();
  const fields: Record<string, string[]> = {};
  for (const [name, value] of form.entries()) (fields[name] ??= []).push(String(value));
  return fields;
}

/**
 * The `event-data` of one MSG webhook about the exchange: `user-variables` from the `v:*` fields, the tags
 * from `o:tag`, and `message.headers["message-id"]` = the answered id without its angle brackets. A bounce
 * is `failed` with severity `permanent`. The caller adds the `signature` block.
 */
export async function mailgunEventDataFrom(
  exchange: ProviderExchange,
  status: PairStatus,
  eventId: string,
  echoContext = true,
): Promise<Record<string, unknown>> {
  const fields = await formFieldsOf(exchange.request);
  const variables: Record<string, string> = {};
  for (const [name, values] of Object.entries(fields))
    if (name.startsWith('v:')) variables[name.slice(2)] = values[0]!;
  const id = String(answerBody(exchange).id).replace(/^<|>$/g, '');
  return {
    event: status === 'delivered' ? 'delivered' : 'failed',
    ...(status === 'bounced'
      ? { severity: 'permanent', reason: 'bounce', 'delivery-status': { code: 550 } }
      : {}),
    id: eventId,
    timestamp: Date.now() / 1000,
    recipient: fields.to?.[0],
    tags: fields['o:tag'] ?? [],
    'user-variables': echoContext ? variables : {},
    message: { headers: { 'message-id': id, to: fields.to?.[0], subject: fields.subject?.[0] } },
  };
}

/** CLOUD: SES v2 `POST /v2/email/outbound-emails` answered `{ MessageId }`. */
export function startSesFake(): Promise<RecordingProvider> {
  return startRecordingProvider('POST /v2/email/outbound-emails', (_request, call) => ({
    status: 200,
    body: { MessageId: `0102018f-fake-${String(call).padStart(4, '0')}-000000` },
  }));
}

/**
 * One SES event record about the exchange (the SNS `Message`): `mail.messageId` = the answered MessageId,
 * `mail.tags` = the sent EmailTags as name -> [value] plus SES's own `ses:configuration-set`. A bounce is
 * `Permanent`.
 */
export function sesEventFrom(
  exchange: ProviderExchange,
  status: PairStatus,
  echoContext = true,
): Record<string, unknown> {
  const body = json(exchange);
  const tags: Record<string, string[]> = {};
  if (body.ConfigurationSetName) tags['ses:configuration-set'] = [body.ConfigurationSetName];
  if (echoContext)
    for (const tag of (body.EmailTags ?? []) as Array<{ Name: string; Value: string }>)
      tags[tag.Name] = [tag.Value];
  const timestamp = new Date().toISOString();
  const recipients = body.Destination?.ToAddresses ?? [];
  return {
    eventType: status === 'delivered' ? 'Delivery' : 'Bounce',
    mail: {
      timestamp,
      source: body.FromEmailAddress,
      messageId: answerBody(exchange).MessageId,
      destination: recipients,
      tags,
    },
    ...(status === 'delivered'
      ? { delivery: { timestamp, recipients, processingTimeMillis: 512, smtpResponse: '250 2.0.0 OK' } }
      : {
          bounce: {
            bounceType: 'Permanent',
            bounceSubType: 'General',
            bouncedRecipients: recipients.map((emailAddress: string) => ({ emailAddress })),
            timestamp,
            feedbackId: '0102018f-feedback',
          },
        }),
  };
}

/** DIR: `POST /{version}/users/{user}/sendMail` answered 202 with request ids and no message id. */
export function startGraphFake(path: string): Promise<RecordingProvider> {
  return startRecordingProvider(`POST ${path}`, (request, call) => ({
    status: 202,
    headers: {
      'request-id': `00000000-0000-4000-8000-${String(call).padStart(12, '0')}`,
      'client-request-id': String(request.headers['client-request-id'] ?? ''),
    },
  }));
}

/** An HTTP webhook receiver: accepts every POST with 202 and answers no message id. */
export function startWebhookReceiverFake(path = '/invitations'): Promise<RecordingProvider> {
  return startRecordingProvider(`POST ${path}`, () => ({ status: 202 }));
}

/** The fields the provider-neutral callback takes for one observation. */
export interface NeutralObservationFields {
  readonly tenantId?: string;
  readonly invitationId?: string;
  readonly channel?: string;
  readonly senderId?: string;
  readonly providerMessageId?: string;
}

/**
 * One provider-neutral observation, as a receiver of our mail posts it: the ids copied from `fields`
 * (what the receiver saw on the message), the status and the receiver's own event id.
 */
export function neutralObservation(
  providerKey: string,
  fields: NeutralObservationFields,
  status: PairStatus,
  eventId: string,
  echoContext = true,
): Record<string, unknown> {
  const { tenantId, invitationId, channel, senderId, providerMessageId } = fields;
  return {
    providerKey,
    providerEventId: eventId,
    ...(echoContext ? { tenantId, invitationId, channel, senderId } : {}),
    status,
    ...(providerMessageId ? { providerMessageId } : {}),
    reason: status,
  };
}

/** What the HTTP webhook receiver saw: the JSON body's context fields (plain values). */
export function webhookBodyFields(exchange: ProviderExchange): NeutralObservationFields {
  const body = json(exchange);
  return {
    tenantId: body.tenantId,
    invitationId: body.invitationId,
    channel: body.channel,
    senderId: body.senderId,
    providerMessageId: body.messageId,
  };
}

/**
 * What a mailbox sees on a Graph-sent message: the `internetMessageHeaders` by lower-case name (values as
 * sent; decode them with the contract's decoder).
 */
export function graphMessageHeaders(exchange: ProviderExchange): Record<string, string> {
  const headers = (json(exchange).message?.internetMessageHeaders ?? []) as Array<{
    name: string;
    value: string;
  }>;
  return Object.fromEntries(headers.map((header) => [header.name.toLowerCase(), header.value]));
}
