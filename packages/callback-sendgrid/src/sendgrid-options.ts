import { createPublicKey } from 'node:crypto';
import { secretString } from '@corekit/abstractions';
import {
  replayCacheLimit,
  refineSignedCallback,
  replayRetentionSeconds,
  sharedCallbackShape,
  toleranceSeconds,
  type SharedCallbackOptions,
} from '@corekit/callback-kit';
import { z } from 'zod';

const headerName = z.string().regex(/^[A-Za-z0-9-]{1,100}$/, 'an HTTP header name');

/** True when the text is a base64 DER SubjectPublicKeyInfo of a P-256 key (what the provider publishes). */
export function isP256PublicKey(text: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/** `Engine:MultiTenancy:Governance:SendGridInvitationDelivery:AspNetCore` (spec 2.7, SEND keys). */
export const sendGridCallbackOptionsSchema = z
  .strictObject({
    ...sharedCallbackShape('sendgrid'),
    NormalizeProviderMessageIdFromSgMessageId: z.boolean().default(true),
    RequireSignedEventWebhook: z.boolean().default(true),
    SignedEventWebhookPublicKey: secretString(
      'the signed event webhook verification key (base64 DER SPKI, P-256)',
    ).optional(),
    SignedEventWebhookSignatureHeaderName: headerName.default('X-Twilio-Email-Event-Webhook-Signature'),
    SignedEventWebhookTimestampHeaderName: headerName.default('X-Twilio-Email-Event-Webhook-Timestamp'),
    SignedEventWebhookSignatureToleranceSeconds: toleranceSeconds,
    EnableSignedEventWebhookReplayProtection: z.boolean().default(true),
    SignedEventWebhookReplayRetentionSeconds: replayRetentionSeconds,
    SignedEventWebhookReplayCacheLimit: replayCacheLimit,
    EnableEventWebhookEventIdIdempotency: z.boolean().default(true),
  })
  .superRefine((options, context) => {
    refineSignedCallback(
      context,
      {
        flag: 'RequireSignedEventWebhook',
        secret: 'SignedEventWebhookPublicKey',
        retention: 'SignedEventWebhookReplayRetentionSeconds',
        tolerance: 'SignedEventWebhookSignatureToleranceSeconds',
      },
      {
        required: options.RequireSignedEventWebhook,
        secretSet: Boolean(options.SignedEventWebhookPublicKey),
        retentionSeconds: options.SignedEventWebhookReplayRetentionSeconds,
        toleranceSeconds: options.SignedEventWebhookSignatureToleranceSeconds,
      },
    );
    if (options.SignedEventWebhookPublicKey && !isP256PublicKey(options.SignedEventWebhookPublicKey)) {
      context.addIssue({
        code: 'custom',
        path: ['SignedEventWebhookPublicKey'],
        message: 'must be the base64 DER SubjectPublicKeyInfo of a P-256 key',
      });
    }
  });

export type SendGridCallbackOptions = z.output<typeof sendGridCallbackOptionsSchema> & SharedCallbackOptions;
export type SendGridCallbackOptionsInput = z.input<typeof sendGridCallbackOptionsSchema>;
