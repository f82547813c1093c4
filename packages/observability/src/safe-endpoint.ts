/** The URL without user info, query or fragment (an API key in a query string is never logged). */
export function safeEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
