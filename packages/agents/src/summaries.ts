import { errorCode, redactText, secretsInConnectionString } from '@corekit/abstractions';
import type { ErrorSummary } from './run-model';

/** Keys whose values are always masked in summaries and metadata. */
const sensitiveKey =
  /pass(word)?|pwd|secret|token|api[-_]?key|authorization|credential|cookie|private[-_]?key/i;
const masked = '***';
const maxMetadataKeys = 16;

function maskSensitive(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => maskSensitive(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    copy[key] = sensitiveKey.test(key) ? masked : maskSensitive(item, depth + 1);
  }
  return copy;
}

/** Redacts free text: connection-string secrets, URL credentials, bearer tokens, then bounds it. */
export function redactSummary(text: string, maxLength: number, secrets: readonly string[] = []): string {
  const found = [...secrets, ...secretsInConnectionString(text)];
  const redacted = redactText(text, found)
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${masked}`)
    .replace(
      /((?:password|pwd|secret|token|api[-_]?key)\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;&]+)/gi,
      `$1${masked}`,
    );
  return redacted.length <= maxLength ? redacted : `${redacted.slice(0, Math.max(0, maxLength - 1))}…`;
}

/**
 * A bounded, redacted one-line summary of an executor's output: JSON with sensitive keys masked, then
 * redacted text, cut to `maxLength`. It is a summary for operators, never the output itself.
 */
export function summarizeOutput(output: unknown, maxLength: number): string | null {
  if (output === undefined || output === null) return null;
  let text: string;
  try {
    text = typeof output === 'string' ? output : (JSON.stringify(maskSensitive(output, 0)) ?? String(output));
  } catch {
    text = '[unserialisable output]';
  }
  return redactSummary(text, maxLength);
}

/** The error summary of a failed attempt: the error's own code (or the fallback) and a redacted message. */
export function summarizeError(error: unknown, fallbackCode: string, maxLength: number): ErrorSummary {
  const code = errorCode(error, fallbackCode);
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : 'non-error value thrown';
  return {
    code: /^[A-Z0-9_.-]{1,64}$/i.test(code) ? code : fallbackCode,
    message: redactSummary(message, maxLength),
  };
}

/** Request metadata made safe: at most 16 keys, sensitive keys masked, values redacted and bounded. */
export function safeMetadata(
  metadata: Readonly<Record<string, string>> | undefined,
  maxLength: number,
): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata ?? {}).slice(0, maxMetadataKeys)) {
    safe[key] = sensitiveKey.test(key) ? masked : redactSummary(value, maxLength);
  }
  return safe;
}
