import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { encodeDeliveryContext } from '@corekit/callback-kit';

/** The provider SDK's published test vector (PROTOCOLS.md). */
export const sendGridVector = {
  publicKey:
    'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==',
  signature:
    'MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=',
  timestamp: '1588788367',
  payload: '{"category":"example_payload","event":"test_event","message_id":"message_id"}',
};

/** A throw-away P-256 key pair: the base64 SPKI public key (what the provider publishes) and a signer. */
export function sendGridTestKey(): { publicKey: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'), privateKey };
}

/** Signed headers for `raw` at `timestamp` (unix seconds), as the provider sends them. */
export function signSendGrid(privateKey: KeyObject, raw: Buffer, timestamp: number): Record<string, string> {
  const stamp = String(timestamp);
  const signature = sign('sha256', Buffer.concat([Buffer.from(stamp), raw]), privateKey).toString('base64');
  return {
    'x-twilio-email-event-webhook-signature': signature,
    'x-twilio-email-event-webhook-timestamp': stamp,
    'content-type': 'application/json',
  };
}

/**
 * One SEND event with the invitation context as custom args, written by the delivery context contract's
 * encoder (what the SendGrid sender sends, echoed as top-level keys).
 */
export function sendGridEvent(
  id: string,
  event: string,
  context: { tenantId?: string; invitationId?: string } = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    email: 'invitee@example.test',
    timestamp: 1893456000,
    'smtp-id': '<14c5d75ce93.dfd.64b469@ismtpd-555>',
    event,
    sg_event_id: id,
    sg_message_id: 'msg-abc.filter0001.16648.5515E0B88.0',
    ...encodeDeliveryContext(context, 'text'),
    ...extra,
  };
}
