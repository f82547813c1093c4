import { createHmac, randomBytes } from 'node:crypto';
import { encodeDeliveryContext } from '@corekit/callback-kit';

export const mailgunTestKey = 'key-test-signing-0123456789abcdef';

/** A signature block as the provider sends it (token random, 50 characters). */
export function mailgunSignature(
  timestamp: number,
  key = mailgunTestKey,
  token = randomBytes(25).toString('hex'),
) {
  const stamp = String(timestamp);
  return {
    timestamp: stamp,
    token,
    signature: createHmac('sha256', key)
      .update(stamp + token)
      .digest('hex'),
  };
}

/**
 * One webhook item with the invitation context as user variables, written by the delivery context
 * contract's encoder (what the Mailgun sender sends as `v:*` variables).
 */
export function mailgunItem(
  id: string,
  event: string,
  timestamp: number,
  context: { tenantId?: string; invitationId?: string } = {},
  extra: Record<string, unknown> = {},
  key = mailgunTestKey,
): Record<string, unknown> {
  return {
    signature: mailgunSignature(timestamp, key),
    'event-data': {
      event,
      id,
      timestamp: timestamp + 0.25,
      recipient: 'invitee@example.test',
      tags: ['invitation'],
      'user-variables': encodeDeliveryContext(context, 'text'),
      message: { headers: { 'message-id': '20300101000000.1.ABCDEF@mg.example.test' } },
      ...extra,
    },
  };
}
