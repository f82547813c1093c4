/**
 * An error with a stable machine-readable `code` and a message a user can act on. Hosts turn it into
 * problem details; `details` carries safe structured context (never secrets).
 */
export class CoreError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CoreError';
    this.code = code;
    this.details = details;
  }
}

/** True for any error carrying a string `code` (CoreError or a Node system error). */
export function errorCode(error: unknown, fallback = 'UNEXPECTED_ERROR'): string {
  if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') {
    return (error as { code: string }).code;
  }
  return fallback;
}
