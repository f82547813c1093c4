import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineBuilder } from '@corekit/abstractions';
import { mapMailgunStatusCallbacks } from '@corekit/callback-mailgun';
import { mapSendGridStatusCallbacks } from '@corekit/callback-sendgrid';
import { mapSesStatusCallbacks } from '@corekit/callback-ses';

/** Demo-only provider callback credentials (a real host reads the provider's keys from its configuration). */
export const deliveryCallbacksDemoCredentials = {
  mailgunWebhookSigningKey: 'demo-mailgun-signing-key-change-me',
  /** The demo token policy of governance-web-demo, reused so one demo bearer token opens every callback. */
  policy: 'tenant-governance.delivery-status-callback',
} as const;

/**
 * Maps the three provider callbacks on the sample host (after `addGovernanceDeliveryDemo`), behind the demo
 * bearer token's policy:
 * - Mailgun with the demo webhook signing key above;
 * - SendGrid with a P-256 key pair generated at startup: the public key verifies, the private key is written
 *   to `<data>/sendgrid-demo-webhook-key.pem` so `openssl` can sign a demo callback (it plays the provider);
 * - SES in the controlled-test posture (verification off, raw SES event objects accepted), since a sample
 *   host has no SNS topic; a real host lists its topics and keeps verification on.
 */
export function addDeliveryCallbacksDemo(
  builder: EngineBuilder,
  options: { readonly dataDirectory?: string } = {},
): { readonly sendGridPrivateKeyPath: string } {
  const directory = options.dataDirectory ?? path.join(os.tmpdir(), 'corekit-sample-host');
  mkdirSync(directory, { recursive: true });
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const sendGridPrivateKeyPath = path.join(directory, 'sendgrid-demo-webhook-key.pem');
  writeFileSync(sendGridPrivateKeyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const policy = { StatusCallbackAuthorizationPolicy: deliveryCallbacksDemoCredentials.policy };
  mapSendGridStatusCallbacks(builder, {
    ...policy,
    SignedEventWebhookPublicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  });
  mapMailgunStatusCallbacks(builder, {
    ...policy,
    WebhookSigningKey: deliveryCallbacksDemoCredentials.mailgunWebhookSigningKey,
  });
  mapSesStatusCallbacks(builder, {
    ...policy,
    RequireSnsSignatureVerification: false,
    AcceptRawSesEventPayloads: true,
  });
  return { sendGridPrivateKeyPath };
}
