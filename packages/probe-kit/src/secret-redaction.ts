/**
 * Helpers that keep secrets out of probe output: find the secrets hidden inside endpoints and connection
 * strings, and scrub known secret values from any text or structured result.
 */

const redacted = '***';

/** Removes `user:password@` credentials from every URL inside `text`. */
export function stripUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, `$1${redacted}@`);
}

/**
 * The secret values embedded in a configuration string: the password (and its decoded form) of a URL
 * such as `http://user:pass@host`, and `Password=` / `Pwd=` / `Token=` values of key=value connection strings.
 */
export function secretsInConnectionString(value: string): string[] {
  const found = new Set<string>();
  const urlMatch = /^[a-z][a-z0-9+.-]*:\/\/([^/@\s]*)@/i.exec(value.trim());
  if (urlMatch) {
    const userInfo = urlMatch[1];
    const separator = userInfo.indexOf(':');
    if (separator >= 0) {
      const password = userInfo.slice(separator + 1);
      if (password) {
        found.add(password);
        try {
          found.add(decodeURIComponent(password));
        } catch {
          // malformed escape: the raw form is already recorded
        }
      }
    }
  }
  for (const match of value.matchAll(
    /(?:^|;)\s*(?:password|pwd|token|access[ _]?token|api[ _]?key|secret)\s*=\s*("[^"]*"|'[^']*'|[^;]*)/gi,
  )) {
    let secret = match[1].trim();
    if (
      (secret.startsWith('"') && secret.endsWith('"')) ||
      (secret.startsWith("'") && secret.endsWith("'"))
    ) {
      secret = secret.slice(1, -1);
    }
    if (secret) found.add(secret);
  }
  for (const match of value.matchAll(/[?&](?:password|token|api_key|apikey)=([^&#\s]+)/gi)) {
    found.add(match[1]);
    try {
      found.add(decodeURIComponent(match[1]));
    } catch {
      // keep the raw form only
    }
  }
  return [...found].filter((secret) => secret.length > 0);
}

/** Replaces every occurrence of every secret in `text` (longest first) with `***`, and URL credentials. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length > 0) result = result.split(secret).join(redacted);
  }
  return stripUrlCredentials(result);
}

/** Deep copy of `value` with every string redacted (see redactText). Keys are kept as they are. */
export function redactValue<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    copy[key] = redactValue(item, secrets, depth + 1);
  }
  return copy as T;
}
