import { OperationError } from '@corekit/abstractions';
import { callbackErrorCodes } from './callback-errors';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Parses the exact request bytes as JSON: strict UTF-8 (an invalid sequence is refused, never replaced),
 * nothing but JSON. Call only after the signature over the same bytes was verified. Throws 400
 * CALLBACK_BODY_INVALID; the message never quotes the body.
 */
export function parseJsonBody(raw: Buffer | null | undefined): unknown {
  if (!raw || raw.length === 0) {
    throw new OperationError('invalid-input', callbackErrorCodes.bodyInvalid, 'The callback body is empty');
  }
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    throw new OperationError(
      'invalid-input',
      callbackErrorCodes.bodyInvalid,
      'The callback body is not UTF-8',
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new OperationError(
      'invalid-input',
      callbackErrorCodes.bodyInvalid,
      'The callback body is not JSON',
    );
  }
}

/** Refuses a body over the limit (413) before anything reads it; hosts also refuse it before buffering. */
export function assertBodySize(raw: Buffer | null | undefined, maxBytes: number): void {
  if (raw && raw.length > maxBytes) {
    throw new OperationError(
      'too-large',
      callbackErrorCodes.bodyTooLarge,
      `The callback body is larger than MaxRequestBodyBytes (${maxBytes})`,
    );
  }
}

/** A header value by case-insensitive name (the first of a repeated header); undefined when absent. */
export function headerValue(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0];
  return value;
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses a batch over MaxEventsPerRequest (400) before any event is translated or reconciled. */
export function assertBatchSize(count: number, maxEvents: number): void {
  if (count > maxEvents) {
    throw new OperationError(
      'invalid-input',
      callbackErrorCodes.tooManyEvents,
      `The callback carries ${count} events, more than MaxEventsPerRequest (${maxEvents})`,
    );
  }
}

/** The events of a body that is one event or an array of them, refused (400) over MaxEventsPerRequest. */
export function batchItems(body: unknown, maxEvents: number): unknown[] {
  const items: unknown[] = Array.isArray(body) ? body : [body];
  assertBatchSize(items.length, maxEvents);
  return items;
}
