import { CdcProviderError } from '@corekit/data';

const sourceErrorCodes: ReadonlySet<string> = new Set([
  '42P01',
  '42501',
  '42703',
  '3F000',
  '42704',
  '55000',
  '42710',
]);

/** Maps a driver error to a failure class with a message free of connection details. */
export function classify(
  error: unknown,
  table: string,
  fallback: 'staging' | 'provider' = 'provider',
): CdcProviderError {
  if (error instanceof CdcProviderError) return error;
  const code = (error as { code?: unknown })?.code;
  const message = (error instanceof Error ? error.message : String(error)).replace(
    /postgres(ql)?:\/\/\S+/gi,
    '<connection>',
  );
  if (typeof code === 'string' && sourceErrorCodes.has(code)) {
    return new CdcProviderError(
      'source',
      'CDC_SOURCE_UNAVAILABLE',
      `source ${table} unavailable (${code}): ${message}`.slice(0, 500),
    );
  }
  return new CdcProviderError(
    fallback,
    fallback === 'staging' ? 'CDC_STAGING_FAILED' : 'CDC_PROVIDER_UNAVAILABLE',
    `PostgreSQL logical decoding: ${typeof code === 'string' ? `${code} ` : ''}${message}`.slice(0, 500),
  );
}
