import { createHash, randomBytes } from 'node:crypto';
import { errorCode, stripUrlCredentials } from '@corekit/abstractions';

/** A generated id with a prefix (`reindex-…`, `corr-…`, `query-…`). */
export function generatedId(prefix: string): string {
  return `${prefix}-${randomBytes(8).toString('hex')}`;
}

/**
 * The query fingerprint kept in the state instead of the text: SHA-256 of the trimmed, lower-cased,
 * whitespace-collapsed text, first 16 hex digits. Equal queries share a fingerprint; short queries can be
 * guessed from it by trying candidates, so it is not a secret-keeping device.
 */
export function queryFingerprint(text: string): string {
  const normalized = text.trim().toLowerCase().replace(/\s+/g, ' ');
  return 'sha256:' + createHash('sha256').update(normalized).digest('hex').slice(0, 16);
}

/**
 * A bounded error summary: the error's code (or a fallback) and the first 200 characters of its message with
 * URL credentials stripped (the engine's logger redacts registered secrets from logs on top of this).
 */
export function errorSummary(error: unknown, fallbackCode: string) {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error, fallbackCode);
  return { code, message: stripUrlCredentials(message).slice(0, 200) };
}

export function isoOf(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
