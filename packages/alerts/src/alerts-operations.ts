import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineOperation, OperationError, type OperationDefinition } from '@corekit/abstractions';
import { silenceEntrySchema, silenceMatchersSchema, type SilenceRecord } from './alerts-model';
import type { IncidentBook } from './incident-book';
import { silenceEntry } from './silences';

/** The named policy of the silence operations; the host's authorize hook decides who holds it. */
export const alertsSilencePolicy = 'alerts.silence';

export interface SilenceAudit {
  created(silence: SilenceRecord): void;
  expired(silence: SilenceRecord): void;
}

const timestamp = z.iso.datetime({ offset: true });

/**
 * `POST /engine/alert-silences` and `POST /engine/alert-silences/{silenceId}/expire`, guarded by the named policy
 * `alerts.silence`. A silence needs at least one matcher, an end time in the future (at most
 * Silences:MaxDuration away) and a comment; who created or expired it is the caller's principal.
 */
export function alertsOperations(
  book: IncidentBook,
  settings: { readonly maxDurationMs: number; readonly now: () => number },
  audit: SilenceAudit,
): OperationDefinition<any, any, any, any>[] {
  const tags = ['Alerts'];
  return [
    defineOperation({
      id: 'alerts.create-silence',
      method: 'POST',
      path: '/engine/alert-silences',
      summary: 'Silence matching alerts until an end time',
      tags,
      body: z
        .object({
          matchers: silenceMatchersSchema,
          endsAtUtc: timestamp,
          startsAtUtc: timestamp.optional(),
          comment: z.string().trim().min(3).max(1000),
        })
        .strict(),
      result: silenceEntrySchema,
      successStatus: 201,
      authorization: { mode: 'required', policy: alertsSilencePolicy },
      maxBodyBytes: 16 * 1024,
      errors: {
        'invalid-input':
          'no matcher, no comment, an end time in the past, before the start or beyond Engine:Alerts:Silences:MaxDuration',
        conflict: 'the silence store is full (STORE_FULL)',
      },
      handler: async ({ body }, context) => {
        const now = settings.now();
        const startsAtMs = body.startsAtUtc ? Math.max(now, Date.parse(body.startsAtUtc)) : now;
        const endsAtMs = Date.parse(body.endsAtUtc);
        if (endsAtMs <= startsAtMs) {
          throw new OperationError(
            'invalid-input',
            'ALERT_SILENCE_END_NOT_AFTER_START',
            'endsAtUtc must be after the start (and in the future)',
          );
        }
        if (endsAtMs - startsAtMs > settings.maxDurationMs) {
          throw new OperationError(
            'invalid-input',
            'ALERT_SILENCE_TOO_LONG',
            `a silence may last at most ${Math.round(settings.maxDurationMs / 3_600_000)} h (Engine:Alerts:Silences:MaxDuration)`,
          );
        }
        const silence: SilenceRecord = {
          kind: 'silence',
          silenceId: `sil-${now.toString(36)}-${randomBytes(3).toString('hex')}`,
          matchers: body.matchers,
          startsAtMs,
          endsAtMs,
          comment: body.comment,
          createdBy: context.principal?.subject ?? `${context.transport} caller`,
          createdAtMs: now,
          expiredAtMs: null,
          expiredBy: null,
        };
        await book.addSilence(silence);
        audit.created(silence);
        return silenceEntry(silence, now);
      },
    }),
    defineOperation({
      id: 'alerts.expire-silence',
      method: 'POST',
      path: '/engine/alert-silences/:silenceId/expire',
      summary: 'End a silence now',
      tags,
      params: z.object({ silenceId: z.string().min(1).max(100) }),
      result: silenceEntrySchema,
      authorization: { mode: 'required', policy: alertsSilencePolicy },
      errors: {
        'not-found': 'no silence has this id (ALERT_SILENCE_NOT_FOUND)',
        conflict: 'the silence has already ended (ALERT_SILENCE_ALREADY_EXPIRED)',
      },
      handler: async ({ params }, context) => {
        const by = context.principal?.subject ?? `${context.transport} caller`;
        const result = await book.expireSilence(params.silenceId, by);
        if (result === null) {
          throw new OperationError(
            'not-found',
            'ALERT_SILENCE_NOT_FOUND',
            `No silence "${params.silenceId}"`,
          );
        }
        if (result === 'already-expired') {
          throw new OperationError(
            'conflict',
            'ALERT_SILENCE_ALREADY_EXPIRED',
            `Silence "${params.silenceId}" has already ended`,
          );
        }
        audit.expired(result);
        return silenceEntry(result, settings.now());
      },
    }),
  ];
}
