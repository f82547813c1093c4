import { z } from 'zod';

/** Per-event outcomes of a provider callback. */
export const callbackEventOutcomes = [
  // reconciler outcomes (spec 2.2 observation outcomes)
  'reconciled',
  'recorded-precedence-kept',
  'duplicate',
  'unknown-invitation',
  'provider-message-mismatch',
  'invalid',
  // translated but RecordStatus is false
  'translated-not-recorded',
  // translation skips
  'skipped-engagement',
  'skipped-unmapped',
  'skipped-no-context',
  'skipped-invalid-event',
] as const;
export type CallbackEventOutcome = (typeof callbackEventOutcomes)[number];

/**
 * The answer of every provider callback: aggregate counts and one outcome per event. Never a recipient
 * address, an invitation or tenant id, or any part of the payload beyond the normalized observation id.
 */
export const callbackResultSchema = z.strictObject({
  provider: z.string(),
  /** `events`, or for CLOUD envelopes `subscription-confirmation` / `unsubscribe-confirmation`. */
  kind: z.enum(['events', 'subscription-confirmation', 'unsubscribe-confirmation']),
  received: z.number().int(),
  translated: z.number().int(),
  skipped: z.number().int(),
  recorded: z.boolean(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  duplicateEvents: z.number().int(),
  outcomes: z.array(
    z.strictObject({
      index: z.number().int(),
      observationId: z.string().nullable(),
      outcome: z.enum(callbackEventOutcomes),
      status: z.string().optional(),
      reconciledStatus: z.string().nullable().optional(),
    }),
  ),
  /** CLOUD confirmations: what was done with the subscribe or unsubscribe URL (never the URL itself). */
  confirmation: z
    .strictObject({
      outcome: z.enum(['confirmed', 'failed', 'disabled', 'observed', 'not-observed']),
      reason: z.string().optional(),
    })
    .optional(),
});
export type CallbackResult = z.output<typeof callbackResultSchema>;
export type CallbackOutcomeEntry = CallbackResult['outcomes'][number];
