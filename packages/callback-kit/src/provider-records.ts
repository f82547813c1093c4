import { OperationError, type Logger } from '@corekit/abstractions';
import { callbackErrorCodes } from './callback-errors';
import type { CallbackResult } from './callback-response';
import type { ReplaySurface } from './callback-surface';
import type { ReplayGuard } from './replay-guard';

/** Event ids of the records the kit writes on a provider's behalf (each provider has its own range). */
export interface ProviderRecordEventIds {
  /** One info record per processed request (4562, 4568, 4578). */
  readonly processed: number;
  /** One info record per duplicate event skipped before reconciliation. */
  readonly duplicate: number;
  /** The warn record of a verified request claimed again inside the replay window. */
  readonly replayRefused: number;
  /** The warn record of a refused signature or verification. */
  readonly signatureRefused: number;
}

/** How a provider's records read: its log category, the noun of one request, its event ids. */
export interface ProviderRecords {
  readonly category: string;
  /** `A Mailgun callback`, `An SES callback`: starts every message the kit writes for the provider. */
  readonly requestLabel: string;
  readonly eventIds: ProviderRecordEventIds;
}

/** The signature refusals every provider answers with 401 (`CALLBACK_SIGNATURE_<REFUSAL>`). */
export type SignatureRefusal = 'missing' | 'malformed' | 'stale' | 'invalid';

const signatureCodes: Readonly<Record<SignatureRefusal, string>> = {
  missing: callbackErrorCodes.signatureMissing,
  malformed: callbackErrorCodes.signatureMalformed,
  stale: callbackErrorCodes.signatureStale,
  invalid: callbackErrorCodes.signatureInvalid,
};

/**
 * The 401 of a refused signature: `The <subject> signature is <refusal>` (subject `signed webhook`,
 * `signed event webhook`). The message names the reason, never the signature or the body.
 */
export function signatureRefusalError(subject: string, refusal: SignatureRefusal): OperationError {
  return new OperationError(
    'unauthenticated',
    signatureCodes[refusal],
    `The ${subject} signature is ${refusal}`,
  );
}

/** Writes the warn record of a refused signature and answers the error to throw. */
export function logSignatureRefusal(
  records: ProviderRecords,
  logger: Logger,
  outcome: string,
  error: Error,
): Error {
  logger.log({
    level: 'warn',
    eventId: records.eventIds.signatureRefused,
    category: records.category,
    message: `${records.requestLabel} was refused: signature ${outcome}`,
    reason: outcome,
  });
  return error;
}

/** What a replay refusal says: the warn record's message and the 409's message. */
export interface ReplayWording {
  readonly message: string;
  readonly answer: string;
}

/**
 * Claims a verified request's fingerprint in the replay cache (no cache: nothing to claim). Inside the
 * window it writes the warn record and throws 409 `CALLBACK_REPLAY`.
 */
export async function claimOnce(
  records: ProviderRecords,
  replay: ReplayGuard | undefined,
  parts: readonly string[],
  logger: Logger,
  wording: ReplayWording,
): Promise<void> {
  if (!replay || (await replay.claim(parts)) !== 'replay') return;
  logger.log({
    level: 'warn',
    eventId: records.eventIds.replayRefused,
    category: records.category,
    message: wording.message,
  });
  throw new OperationError('replay', callbackErrorCodes.replay, wording.answer);
}

/** The info record of a processed request: counts only, and the configured Actor. */
export function logProcessed(
  records: ProviderRecords,
  logger: Logger,
  result: CallbackResult,
  actor: string | undefined,
): void {
  logger.log({
    level: 'info',
    eventId: records.eventIds.processed,
    category: records.category,
    message: `${records.requestLabel} was processed: ${result.received} events, ${result.accepted} recorded, ${result.duplicateEvents} duplicates, ${result.skipped} skipped`,
    received: result.received,
    accepted: result.accepted,
    duplicateEvents: result.duplicateEvents,
    skipped: result.skipped,
    ...(actor ? { actor } : {}),
  });
}

/** The replay posture of a surface from the guard the provider opened (no guard: not enabled). */
export function replaySurface(replay: ReplayGuard | undefined, policy: string, key: string): ReplaySurface {
  return {
    enabled: replay !== undefined,
    policy,
    key,
    retentionSeconds: replay ? replay.retentionSeconds : null,
    cacheLimit: replay ? replay.cacheLimit : null,
  };
}
