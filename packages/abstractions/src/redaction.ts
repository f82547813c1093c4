/**
 * The one redaction algorithm of Core: the engine's logger and every probe use it. Known secret values are
 * replaced by `***` (longest first, so a secret that contains another is hidden whole), `user:password@`
 * credentials are stripped from every URL, and Errors are reduced to their name and message (stacks and
 * driver fields can carry connection strings). It cannot find a secret nobody registered, nor one split
 * across two strings; values nested deeper than the depth limit are replaced, not walked.
 */

const redacted = '***';
const maxDepth = 8;

/** Removes `user:password@` credentials from every URL inside `text`. */
export function stripUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, `$1${redacted}@`);
}

function addDecoded(found: Set<string>, raw: string): void {
  found.add(raw);
  try {
    found.add(decodeURIComponent(raw));
  } catch {
    // malformed escape: the raw form is already recorded
  }
}

/**
 * The secret values embedded in a configuration string: the password (and its decoded form) of a URL
 * such as `http://user:pass@host`, `Password=` / `Pwd=` / `Token=` values of key=value connection strings,
 * and `?token=` style query parameters.
 */
export function secretsInConnectionString(value: string): string[] {
  const found = new Set<string>();
  const urlMatch = /^[a-z][a-z0-9+.-]*:\/\/([^/@\s]*)@/i.exec(value.trim());
  if (urlMatch) {
    const userInfo = urlMatch[1];
    const colon = userInfo.indexOf(':');
    const password = colon >= 0 ? userInfo.slice(colon + 1) : '';
    if (password) addDecoded(found, password);
  }
  for (const match of value.matchAll(
    /(?:^|;)\s*(?:password|pwd|token|access[ _]?token|api[ _]?key|secret)\s*=\s*("[^"]*"|'[^']*'|[^;]*)/gi,
  )) {
    let secret = match[1].trim();
    const quoted =
      (secret.startsWith('"') && secret.endsWith('"')) || (secret.startsWith("'") && secret.endsWith("'"));
    if (quoted) secret = secret.slice(1, -1);
    if (secret) found.add(secret);
  }
  for (const match of value.matchAll(/[?&](?:password|token|api_key|apikey)=([^&#\s]+)/gi))
    addDecoded(found, match[1]);
  return [...found].filter((secret) => secret.length > 0);
}

/** Replaces every occurrence of every secret in `text` (longest first) with `***`, then URL credentials. */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length > 0 && result.includes(secret)) result = result.split(secret).join(redacted);
  }
  return stripUrlCredentials(result);
}

/**
 * Deep copy of `value` with every string redacted (see redactText). Keys are kept as they are; an Error
 * becomes `{ name, message }`; objects nested deeper than eight levels become `'[too deep]'`.
 */
export function redactValue<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth > maxDepth) return '[too deep]' as T;
  if (value instanceof Error)
    return redactValue({ name: value.name, message: value.message }, secrets, depth + 1) as T;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    copy[key] = redactValue(item, secrets, depth + 1);
  return copy as T;
}
