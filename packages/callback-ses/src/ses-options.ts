import { replayCacheLimit, sharedCallbackShape, type SharedCallbackOptions } from '@corekit/callback-kit';
import { z } from 'zod';

/** An SNS topic ARN (`arn:aws:sns:us-east-1:123456789012:ses-events`, partitions aws, aws-cn, aws-us-gov). */
export const topicArnPattern = /^arn:aws(-[a-z]+)*:sns:[a-z0-9-]{1,30}:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;

/** How far ahead of the clock an envelope `Timestamp` may be (clock skew), in seconds. */
export const snsTimestampFutureSkewSeconds = 300;

/** `Engine:MultiTenancy:Governance:AmazonSesInvitationDelivery:AspNetCore` (spec 2.7, CLOUD keys). */
export const sesCallbackOptionsSchema = z
  .strictObject({
    ...sharedCallbackShape('amazon-ses-sns'),
    AcceptRawSesEventPayloads: z.boolean().default(false),
    RequireSnsSignatureVerification: z.boolean().default(true),
    RequireSnsSignatureVersion2: z.boolean().default(true),
    RequireAllowedSnsTopicArn: z.boolean().default(true),
    AllowedSnsTopicArns: z.array(z.string().regex(topicArnPattern, 'an SNS topic ARN')).max(100).default([]),
    ValidateSnsSigningCertificateChain: z.boolean().default(true),
    PinnedSnsSigningCertificatePem: z
      .string()
      .regex(/-----BEGIN CERTIFICATE-----/, 'a PEM certificate')
      .max(65_536)
      .optional(),
    EnableSnsReplayProtection: z.boolean().default(true),
    SnsReplayRetentionSeconds: z.number().int().min(1).max(604_800).default(86_400),
    SnsReplayCacheLimit: replayCacheLimit,
    /**
     * Oldest envelope `Timestamp` accepted, in seconds (default 3600: SNS retries an HTTP/S delivery for at
     * most an hour). A Timestamp more than 300 seconds ahead of the clock is refused too.
     */
    SnsMessageMaxAgeSeconds: z.number().int().min(60).max(604_800).default(3600),
    EnableSnsMessageIdIdempotency: z.boolean().default(true),
    EnableSnsSubscriptionConfirmation: z.boolean().default(false),
    SnsSubscriptionConfirmationTimeoutSeconds: z.number().int().min(1).max(60).default(10),
    EnableSnsUnsubscribeConfirmationObservation: z.boolean().default(true),
  })
  .superRefine((options, context) => {
    const verify = options.RequireSnsSignatureVerification;
    if (verify && options.RequireAllowedSnsTopicArn && options.AllowedSnsTopicArns.length === 0) {
      context.addIssue({
        code: 'custom',
        path: ['AllowedSnsTopicArns'],
        message: 'must list at least one topic while RequireAllowedSnsTopicArn is true',
      });
    }
    if (
      verify &&
      options.EnableSnsReplayProtection &&
      options.SnsReplayRetentionSeconds < options.SnsMessageMaxAgeSeconds + snsTimestampFutureSkewSeconds
    ) {
      context.addIssue({
        code: 'custom',
        path: ['SnsReplayRetentionSeconds'],
        message: `must be at least SnsMessageMaxAgeSeconds + ${snsTimestampFutureSkewSeconds} (${options.SnsMessageMaxAgeSeconds + snsTimestampFutureSkewSeconds}): an envelope young enough to be accepted must still be in the replay window`,
      });
    }
    if (verify && !options.ValidateSnsSigningCertificateChain && !options.PinnedSnsSigningCertificatePem) {
      context.addIssue({
        code: 'custom',
        path: ['PinnedSnsSigningCertificatePem'],
        message:
          'is required when ValidateSnsSigningCertificateChain is false (chain validation is only skipped for a pinned certificate)',
      });
    }
    if (verify && options.AcceptRawSesEventPayloads) {
      context.addIssue({
        code: 'custom',
        path: ['AcceptRawSesEventPayloads'],
        message:
          'cannot be true while RequireSnsSignatureVerification is true (raw payloads carry no signature)',
      });
    }
    if (options.EnableSnsSubscriptionConfirmation && !verify) {
      context.addIssue({
        code: 'custom',
        path: ['EnableSnsSubscriptionConfirmation'],
        message: 'needs RequireSnsSignatureVerification (only verified envelopes are confirmed)',
      });
    }
  });

export type SesCallbackOptions = z.output<typeof sesCallbackOptionsSchema> & SharedCallbackOptions;
export type SesCallbackOptionsInput = z.input<typeof sesCallbackOptionsSchema>;
