import { createHmac } from 'node:crypto';

/** The prefix of a Standard Webhooks signing secret; the rest is the key, base64. */
export const webhookSecretPrefix = 'whsec_';

/** The key bytes of a `whsec_<base64>` secret; null when it is not one (wrong prefix, not base64, too short). */
export function webhookSecretKey(secret: string): Buffer | null {
  if (!secret.startsWith(webhookSecretPrefix)) return null;
  const encoded = secret.slice(webhookSecretPrefix.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

/**
 * The `webhook-signature` value of the Standard Webhooks specification: `v1,` and the base64 HMAC-SHA256, keyed
 * with the secret's key bytes, of `<webhook-id>.<webhook-timestamp>.<body>` (the exact bytes sent).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = webhookSecretKey(secret);
  if (!key) throw new Error('the webhook secret is not a whsec_ base64 key');
  const digest = createHmac('sha256', key)
    .update(`${id}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${digest}`;
}

/** The three Standard Webhooks headers of one delivery attempt. */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
  };
}
