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

/** `Engine:MultiTenancy:Governance:MailgunInvitationDelivery:AspNetCore` (spec 2.7, MSG keys). */
export const mailgunCallbackOptionsSchema = z
  .strictObject({
    ...sharedCallbackShape('mailgun'),
    NormalizeProviderMessageIdWithAngleBrackets: z.boolean().default(true),
    RequireSignedWebhook: z.boolean().default(true),
    WebhookSigningKey: secretString('the webhook signing key (not the API key)').optional(),
    SignedWebhookSignatureToleranceSeconds: toleranceSeconds,
    AcceptParentSignature: z.boolean().default(false),
    EnableSignedWebhookReplayProtection: z.boolean().default(true),
    SignedWebhookReplayRetentionSeconds: replayRetentionSeconds,
    SignedWebhookReplayCacheLimit: replayCacheLimit,
    EnableWebhookEventIdIdempotency: z.boolean().default(true),
  })
  .superRefine((options, context) =>
    refineSignedCallback(
      context,
      {
        flag: 'RequireSignedWebhook',
        secret: 'WebhookSigningKey',
        retention: 'SignedWebhookReplayRetentionSeconds',
        tolerance: 'SignedWebhookSignatureToleranceSeconds',
      },
      {
        required: options.RequireSignedWebhook,
        secretSet: Boolean(options.WebhookSigningKey),
        retentionSeconds: options.SignedWebhookReplayRetentionSeconds,
        toleranceSeconds: options.SignedWebhookSignatureToleranceSeconds,
      },
    ),
  );

export type MailgunCallbackOptions = z.output<typeof mailgunCallbackOptionsSchema> & SharedCallbackOptions;
export type MailgunCallbackOptionsInput = z.input<typeof mailgunCallbackOptionsSchema>;
