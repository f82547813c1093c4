import type { ZodType } from 'zod';
import { CoreError, isPlaceholder, isSecretSchema } from '@corekit/abstractions';
import { unknownKeyProblem } from './closest-key';
import { defOf, unwrap } from './configuration-keys';

const separator = ':';

/** Validates `raw` against `schema` after matching keys case-insensitively and coercing strings. */
export function bindValue<T>(keyPath: string, schema: ZodType<T>, raw: unknown): T {
  const problems: string[] = [];
  const normalized = normalize(schema, raw, keyPath, problems);
  const parsed = schema.safeParse(normalized);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        problems.push(...unrecognizedKeys(keyPath, schema, issue.path, issue.keys));
        continue;
      }
      const fullPath = [keyPath, ...issue.path.map(String)].filter(Boolean).join(separator);
      const value = valueAt(normalized, issue.path);
      const secret = isSecretSchema(schemaAt(schema, issue.path));
      const field = String(issue.path[issue.path.length - 1] ?? keyPath.split(separator).pop() ?? '');
      const got =
        value === undefined
          ? 'nothing'
          : secret || mayHoldSecret(field, value)
            ? 'a value that may hold a secret (not shown)'
            : JSON.stringify(value);
      const message = issue.message.replace(/^Invalid input: /, '').replace(/^expected/, 'must be');
      // Messages that already say what they got are left alone when a validator wrote them (a custom issue
      // chooses what is safe to show: "got the scheme \"http\""), else only when the value cannot be a secret.
      const showsValue =
        /, got /.test(message) && (issue.code === 'custom' || !got.startsWith('a value that may hold'));
      problems.push(
        showsValue ? `${fullPath} ${message}` : `${fullPath} ${message.split(', got ')[0]}, got ${got}`,
      );
    }
  }
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: keyPath,
      problems,
    });
  }
  return (parsed as { data: T }).data;
}

const secretFieldName = /password|passwd|secret|token|apikey|api_key|credential|connectionstring|privatekey/i;
const embeddedSecret = /\/\/[^/\s:@]*:[^/\s@]+@|(?:password|pwd|secret|token)\s*=/i;

/**
 * True when a rejected value must not be echoed in an error: the field's name says it holds a secret, or the
 * value carries one inline (URL user-info, `Password=` in a connection string). Such values are not shown.
 */
export function mayHoldSecret(field: string, value: unknown): boolean {
  if (secretFieldName.test(field)) return true;
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return embeddedSecret.test(text);
}

function normalize(schema: unknown, raw: unknown, keyPath: string, problems: string[]): unknown {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (isSecretSchema(schema) && isPlaceholder(raw)) {
    problems.push(
      `${keyPath} still holds the placeholder ${String(raw)}; supply the real secret (for example through the environment variable ${keyPath.split(separator).join('__')})`,
    );
    return raw;
  }
  if (!def) return raw;
  switch (def.type) {
    case 'object': {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
      const shape = def.shape ?? {};
      const result: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        const schemaKey = Object.keys(shape).find(
          (candidate) => candidate.toLowerCase() === key.toLowerCase(),
        );
        const target = schemaKey ?? key;
        result[target] = schemaKey
          ? normalize(shape[schemaKey], value, `${keyPath}${separator}${target}`, problems)
          : value;
      }
      return result;
    }
    case 'array': {
      if (!Array.isArray(raw)) return raw;
      return raw.map((item, index) =>
        normalize(def.element, item, `${keyPath}${separator}${index}`, problems),
      );
    }
    case 'number':
    case 'int': {
      if (typeof raw === 'string' && raw.trim() !== '' && !Number.isNaN(Number(raw))) return Number(raw);
      return raw;
    }
    case 'boolean': {
      if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim()))
        return raw.trim().toLowerCase() === 'true';
      return raw;
    }
    case 'enum': {
      const values = Object.values((def as unknown as { entries: Record<string, string> }).entries ?? {});
      if (typeof raw === 'string')
        return values.find((candidate) => candidate.toLowerCase() === raw.toLowerCase()) ?? raw;
      return raw;
    }
    default:
      return raw;
  }
}

/**
 * A strict object's "Unrecognized key" as the same problem as every other unknown key: the full key path and
 * the closest field of that object.
 */
function unrecognizedKeys(
  keyPath: string,
  schema: unknown,
  issuePath: readonly PropertyKey[],
  keys: readonly string[],
): string[] {
  const def = defOf(unwrap(schemaAt(schema, issuePath)));
  const fields = Object.keys(def?.type === 'object' ? (def.shape ?? {}) : {});
  const parent = [keyPath, ...issuePath.map(String)].filter(Boolean).join(separator);
  return keys.map((key) => unknownKeyProblem(`${parent}${separator}${key}`, parent, key, fields));
}

function valueAt(value: unknown, issuePath: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of issuePath) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function schemaAt(schema: unknown, issuePath: readonly PropertyKey[]): unknown {
  let current = schema;
  for (const key of issuePath) {
    const def = defOf(unwrap(current));
    if (!def) return undefined;
    if (def.type === 'object') current = def.shape?.[String(key)];
    else if (def.type === 'array') current = def.element;
    else return undefined;
  }
  return current;
}
