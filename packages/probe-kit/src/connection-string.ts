import { CoreError } from '@corekit/abstractions';

/**
 * A database connection string read into settings. Both spellings a user is likely to paste are accepted:
 * a URL (`postgres://user:password@host:5432/database?sslmode=require`) and key=value pairs separated by
 * semicolons (`Host=db;Port=5432;Database=orders;Username=app;Password=...`, the .NET form).
 */
export interface ParsedConnectionString {
  /** Which spelling the string used. */
  readonly form: 'url' | 'key-value';
  /** The URL scheme without `:` (`postgres`), only for the URL form. */
  readonly scheme?: string;
  /**
   * Every setting, keyed by its normalized name: lower case, without spaces, underscores or dashes
   * (`SSL Mode`, `ssl_mode` and `sslmode` are all `sslmode`). The URL form fills `host`, `port`,
   * `database`, `username` and `password` from the URL's parts, and every query parameter by its name.
   * Values are decoded (URL escapes, key=value quoting) and never trimmed inside quotes.
   */
  readonly settings: ReadonlyMap<string, string>;
}

/** `SSL Mode` → `sslmode`: the form keys are compared in. */
export function normalizeConnectionStringKey(key: string): string {
  return key.toLowerCase().replace(/[\s_-]+/g, '');
}

function invalid(why: string): CoreError {
  // The message never repeats the text: it may hold a password.
  return new CoreError('CONNECTION_STRING_INVALID', `The connection string is not valid: ${why}.`);
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function parseUrlForm(text: string): ParsedConnectionString {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(
      'it starts like a URL but could not be parsed as one (one host only; escape special characters in the password as %XX)',
    );
  }
  const settings = new Map<string, string>();
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host) settings.set('host', decode(host));
  if (url.port) settings.set('port', url.port);
  const database = decode(url.pathname.replace(/^\//, ''));
  if (database) settings.set('database', database);
  if (url.username) settings.set('username', decode(url.username));
  if (url.password) settings.set('password', decode(url.password));
  for (const [key, value] of url.searchParams) settings.set(normalizeConnectionStringKey(key), value);
  return { form: 'url', scheme: url.protocol.replace(/:$/, '').toLowerCase(), settings };
}

/** Reads one value of the key=value form starting at `start`; returns it and the index after it. */
function readValue(text: string, start: number): { value: string; next: number } {
  let index = start;
  while (index < text.length && /\s/.test(text[index])) index++;
  const quote = text[index];
  if (quote === '"' || quote === "'") {
    let value = '';
    index++;
    for (;;) {
      if (index >= text.length) throw invalid(`a value opened with ${quote} is never closed`);
      if (text[index] === quote) {
        if (text[index + 1] === quote) {
          value += quote;
          index += 2;
          continue;
        }
        index++;
        break;
      }
      value += text[index++];
    }
    while (index < text.length && /\s/.test(text[index])) index++;
    if (index < text.length && text[index] !== ';')
      throw invalid('a quoted value must be followed by ; or the end');
    return { value, next: index + 1 };
  }
  const end = text.indexOf(';', index);
  const stop = end < 0 ? text.length : end;
  return { value: text.slice(index, stop).trim(), next: stop + 1 };
}

function parseKeyValueForm(text: string): ParsedConnectionString {
  const settings = new Map<string, string>();
  let index = 0;
  while (index < text.length) {
    const equals = text.indexOf('=', index);
    const semicolon = text.indexOf(';', index);
    if (equals < 0 || (semicolon >= 0 && semicolon < equals)) {
      const segment = text.slice(index, semicolon < 0 ? text.length : semicolon).trim();
      if (segment) throw invalid('every part must be key=value, separated by semicolons');
      index = semicolon < 0 ? text.length : semicolon + 1;
      continue;
    }
    const key = normalizeConnectionStringKey(text.slice(index, equals));
    if (!key) throw invalid('a part has an empty key');
    const { value, next } = readValue(text, equals + 1);
    settings.set(key, value);
    index = next;
  }
  return { form: 'key-value', settings };
}

/**
 * Parses a URL or key=value connection string (see ParsedConnectionString). A later duplicate key wins.
 * Throws CoreError CONNECTION_STRING_INVALID; the message never repeats the text.
 */
export function parseConnectionString(text: string): ParsedConnectionString {
  const trimmed = text.trim();
  if (!trimmed) throw invalid('it is empty');
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? parseUrlForm(trimmed) : parseKeyValueForm(trimmed);
}

/** The first setting present among `aliases` (normalized names), or undefined. Empty values count as absent. */
export function connectionStringSetting(
  parsed: ParsedConnectionString,
  aliases: readonly string[],
): string | undefined {
  for (const alias of aliases) {
    const value = parsed.settings.get(normalizeConnectionStringKey(alias));
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** What a probe accepts in its ConnectionString field. */
export interface ConnectionStringRules {
  /** URL schemes accepted for the URL form (`postgresql`, `postgres`). */
  readonly schemes: readonly string[];
  /** Normalized keys accepted in the key=value form (aliases of the fields plus keys accepted and ignored). */
  readonly knownKeys: ReadonlySet<string>;
  /** The supported keys as a user reads them, for the error message. */
  readonly supported: string;
}

/**
 * Registration-time check of a ConnectionString field: it must parse, use one of the schemes in its URL form and
 * hold only known keys. Problems are reported through `issue` on `ConnectionString`; returns the parsed value, or
 * undefined when there is none or it does not parse.
 */
export function validateConnectionString(
  text: string | undefined,
  rules: ConnectionStringRules,
  issue: (field: string, message: string) => void,
): ParsedConnectionString | undefined {
  if (text === undefined) return undefined;
  let parsed: ParsedConnectionString;
  try {
    parsed = parseConnectionString(text);
  } catch (error) {
    issue(
      'ConnectionString',
      (error as Error).message.replace(/^The connection string is not valid: /, 'is not valid: '),
    );
    return undefined;
  }
  if (parsed.form === 'url' && !rules.schemes.includes(parsed.scheme ?? '')) {
    issue(
      'ConnectionString',
      `must use the ${rules.schemes.map((scheme) => `${scheme}://`).join(' or ')} scheme, got ${parsed.scheme}://`,
    );
  }
  for (const key of parsed.settings.keys()) {
    if (!rules.knownKeys.has(key))
      issue('ConnectionString', `has the unsupported key "${key}"; supported: ${rules.supported}`);
  }
  return parsed;
}
