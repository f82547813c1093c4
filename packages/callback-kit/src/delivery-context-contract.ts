/**
 * The delivery context contract: the one place that says which identifiers a sender puts on a provider
 * message, under which names, how their values are encoded, and how a status callback reads them back.
 * Senders (through `@corekit/sender-kit`) write with `encodeDeliveryContext`/`deliveryContextHeaders`;
 * callbacks read with `readDeliveryContext`. Both READMEs carry `deliveryContextTable()`.
 */
import { decodeContextValue, encodeContextValue, type DeliveryContextAlphabet } from '@corekit/email-kit';

// How a value is written into a carrier's alphabet (and read back) is @corekit/email-kit's (the email transports
// use it without this kit); the contract and its users reach it here too.
export { decodeContextValue, encodeContextValue, encodedContextPrefix } from '@corekit/email-kit';
export type { DeliveryContextAlphabet } from '@corekit/email-kit';

/** The identifiers one delivery carries, as the sender knows them. */
export interface DeliveryContextValues {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  readonly senderId: string;
  /** The deterministic core message id (`deterministicDeliveryKey`, the same on every retry). */
  readonly messageId: string;
}

export type DeliveryContextPart = keyof DeliveryContextValues;

/**
 * The name of each part per mechanism: `field` in provider key/value carriers (SEND custom args, MSG `v:`
 * user variables, CLOUD message tags: `[a-z_]` only, so every provider takes them unchanged), `header` in
 * `X-Core-*` message and request headers, `body` in the HTTP webhook sender's JSON body (the names of the
 * provider-neutral callback's observation fields, so a receiver copies them across).
 */
export const deliveryContextNames = {
  tenantId: { field: 'core_tenant_id', header: 'X-Core-Tenant-Id', body: 'tenantId' },
  invitationId: { field: 'core_invitation_id', header: 'X-Core-Invitation-Id', body: 'invitationId' },
  channel: { field: 'core_channel', header: 'X-Core-Channel', body: 'channel' },
  senderId: { field: 'core_sender_id', header: 'X-Core-Sender-Id', body: 'senderId' },
  messageId: { field: 'core_message_id', header: 'X-Core-Message-Id', body: 'messageId' },
} as const satisfies Record<DeliveryContextPart, { field: string; header: string; body: string }>;

/** Parts in the order they are written (the message id first: the part a size-limited carrier keeps). */
export const deliveryContextParts: readonly DeliveryContextPart[] = [
  'messageId',
  'tenantId',
  'invitationId',
  'channel',
  'senderId',
];

/**
 * The context as provider fields (`core_*` names), each value encoded for `alphabet`; a part that is
 * absent, or whose encoded value does not fit, is left out.
 */
export function encodeDeliveryContext(
  context: Partial<DeliveryContextValues>,
  alphabet: Exclude<DeliveryContextAlphabet, 'header'>,
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of deliveryContextParts) {
    const text = context[part];
    const value = text === undefined ? undefined : encodeContextValue(text, alphabet);
    if (value !== undefined) fields[deliveryContextNames[part].field] = value;
  }
  return fields;
}

/**
 * The context as `X-Core-*` headers (`lower` for APIs that want lower-case names; `only` limits the set, in
 * the contract's order), values encoded for headers.
 */
export function deliveryContextHeaders(
  context: DeliveryContextValues,
  options: { readonly lower?: boolean; readonly only?: readonly DeliveryContextPart[] } = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of deliveryContextParts) {
    if (options.only && !options.only.includes(part)) continue;
    const value = encodeContextValue(context[part], 'header');
    if (value === undefined) continue;
    const name = deliveryContextNames[part].header;
    headers[options.lower ? name.toLowerCase() : name] = value;
  }
  return headers;
}

/** The context as the HTTP webhook sender's body fields (plain JSON values, never encoded). */
export function deliveryContextBody(context: DeliveryContextValues): Record<string, string> {
  const body: Record<string, string> = {};
  for (const part of deliveryContextParts) body[deliveryContextNames[part].body] = context[part];
  return body;
}

/** The invitation an event belongs to, read back from the provider's echo of the fields. */
export interface CallbackContext {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel?: string;
  readonly senderId?: string;
  /** The core message id (`core_message_id`): the spec's correlation id. */
  readonly messageId?: string;
}

const idPattern = /^[^\s\p{Cc}]+$/u;
const labelPattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function decoded(value: unknown): string | undefined {
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  return typeof single === 'string' ? decodeContextValue(single) : undefined;
}

/**
 * Reads the context through `read(fieldName)` (a string, or a one-element string array as CLOUD tags are),
 * decoding `b64-` values. Answers undefined when the tenant id or the invitation id is missing, malformed
 * or badly encoded: the callback then skips the event (`skipped-no-context`) rather than attach it to a
 * wrong invitation. A malformed channel, sender or message id is dropped (the event is still about the
 * right invitation).
 */
export function readDeliveryContext(read: (fieldName: string) => unknown): CallbackContext | undefined {
  const tenantId = decoded(read(deliveryContextNames.tenantId.field));
  const invitationId = decoded(read(deliveryContextNames.invitationId.field));
  if (!tenantId || tenantId.length > 100 || !idPattern.test(tenantId)) return undefined;
  if (!invitationId || invitationId.length > 200 || !idPattern.test(invitationId)) return undefined;
  const channel = decoded(read(deliveryContextNames.channel.field));
  const senderId = decoded(read(deliveryContextNames.senderId.field));
  const messageId = decoded(read(deliveryContextNames.messageId.field));
  return {
    tenantId,
    invitationId,
    ...(channel && labelPattern.test(channel) ? { channel } : {}),
    ...(senderId && labelPattern.test(senderId) ? { senderId } : {}),
    ...(messageId && messageId.length <= 200 && idPattern.test(messageId) ? { messageId } : {}),
  };
}

/** Which mechanism each sender uses, with the names it writes (the rows of `deliveryContextTable`). */
const carriers: ReadonlyArray<{ sender: string; mechanism: string; names: string; encoding: string }> = [
  {
    sender: 'SEND (`sender-sendgrid`)',
    mechanism: '`custom_args`, echoed as top-level event keys; `X-Core-*` headers',
    names: 'field, header',
    encoding: 'text, header',
  },
  {
    sender: 'MSG (`sender-mailgun`)',
    mechanism: '`v:<field>` variables, echoed in `event-data["user-variables"]`; `h:X-Core-*` headers',
    names: 'field, header',
    encoding: 'text, header',
  },
  {
    sender: 'CLOUD (`sender-ses`)',
    mechanism: '`EmailTags`, echoed in `mail.tags` as `name -> [value]` (with a configuration set)',
    names: 'field',
    encoding: 'tag',
  },
  {
    sender: 'HTTP webhook (`sender-http`)',
    mechanism: 'JSON body fields and `X-Core-*` request headers',
    names: 'body, header',
    encoding: 'none (body), header',
  },
  {
    sender: 'SMTP (`sender-smtp`)',
    mechanism: '`X-Core-*` headers; `Message-ID: <messageId@from-domain>`',
    names: 'header',
    encoding: 'header',
  },
  {
    sender: 'DIR (`sender-graph`)',
    mechanism: '`internetMessageHeaders`, lower-case, message, tenant and invitation only (Graph takes 5)',
    names: 'header',
    encoding: 'header',
  },
];

/**
 * The contract as Markdown, generated from the constants above: both kits' READMEs carry exactly this text
 * (a test compares them), so senders and callbacks are documented from one source.
 */
export function deliveryContextTable(): string {
  const names = [
    '| part | field (custom args, variables, tags) | header | HTTP body |',
    '|---|---|---|---|',
    ...deliveryContextParts.map((part) => {
      const { field, header, body } = deliveryContextNames[part];
      return `| ${part} | \`${field}\` | \`${header}\` | \`${body}\` |`;
    }),
  ];
  const mechanisms = [
    '| sender | where the context goes | names | encoding |',
    '|---|---|---|---|',
    ...carriers.map((row) => `| ${row.sender} | ${row.mechanism} | ${row.names} | ${row.encoding} |`),
  ];
  const encoding = [
    'Encoding: a value is written as is when every character is allowed (`text`: no control character;',
    '`header`: visible US-ASCII; `tag`: `[A-Za-z0-9_-]`, at most 256) and it does not start with `b64-`;',
    'otherwise as `b64-` + base64url of its UTF-8 bytes. Callbacks decode every value; a `b64-` value that',
    'is not an exact encoding counts as absent. A CLOUD tag whose encoding passes 256 characters is left out.',
    '',
    'Absent context: a provider callback (SEND, MSG, CLOUD) answers the event `skipped-no-context` (200, not',
    'recorded) when `core_tenant_id` or `core_invitation_id` is missing or malformed; a malformed channel,',
    'sender or message id is dropped and the event still counts. The provider-neutral callback requires',
    '`tenantId` and `invitationId` on every observation and refuses the whole request (400) otherwise.',
    '',
    'Message match: with `RequireProviderMessageMatch` on, an observation must name the message by the',
    "provider's message id, or by `messageId` (the core message id), which the dispatch recorded as well; a",
    'provider that answers none (DIR, an HTTP receiver without a message-id header) is matched by it.',
  ];
  return [...names, '', ...mechanisms, '', ...encoding].join('\n');
}
