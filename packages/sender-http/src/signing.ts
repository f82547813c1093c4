import { createHmac } from 'node:crypto';

/** Spec 4.1 HTTP rule 2: `v1=<lowercase hex HMAC-SHA256 of "{unixTimestamp}.{jsonBody}">`. */
export function signWebhookBody(secret: string, unixTimestamp: number, jsonBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${unixTimestamp}.${jsonBody}`, 'utf8').digest('hex')}`;
}
