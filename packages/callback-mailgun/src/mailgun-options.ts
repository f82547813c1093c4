import { secretString } from '@corekit/abstractions';
import {
  replayCacheLimit,
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
  .superRefine((options, context) => {
    if (options.RequireSignedWebhook && !options.WebhookSigningKey) {
      context.addIssue({
        code: 'custom',
        path: ['WebhookSigningKey'],
        message:
          'is required while RequireSignedWebhook is true (or turn the signed webhook off deliberately)',
      });
    }
    if (options.SignedWebhookReplayRetentionSeconds < 2 * options.SignedWebhookSignatureToleranceSeconds) {
      context.addIssue({
        code: 'custom',
        path: ['SignedWebhookReplayRetentionSeconds'],
        message:
          'must cover the whole tolerance window (at least twice SignedWebhookSignatureToleranceSeconds)',
      });
    }
  });

export type MailgunCallbackOptions = z.output<typeof mailgunCallbackOptionsSchema> & SharedCallbackOptions;
export type MailgunCallbackOptionsInput = z.input<typeof mailgunCallbackOptionsSchema>;
