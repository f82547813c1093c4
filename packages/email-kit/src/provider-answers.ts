/** The host of an endpoint URL (safe to record: no path, query or user info). */
export function endpointHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid';
  }
}

/**
 * The HTTP status an SDK error carries (`code`, `status`, `statusCode`, `$metadata.httpStatusCode`,
 * `response.status(Code)`), or null for transport errors. SendGrid, Mailgun, the AWS SDK and the Graph
 * client each put it somewhere else.
 */
export function statusOfError(error: unknown): number | null {
  if (!error || typeof error !== 'object') return null;
  const source = error as Record<string, any>;
  const candidates = [
    source.$metadata?.httpStatusCode,
    source.statusCode,
    source.status,
    source.response?.statusCode,
    source.response?.status,
    source.code,
  ];
  for (const value of candidates) {
    if (typeof value === 'number' && value >= 100 && value <= 599) return value;
  }
  return null;
}
