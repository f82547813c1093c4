import { z } from 'zod';

const secretSchemas = new WeakSet<object>();

/**
 * A configuration string that holds a secret (password, token, key). The engine refuses a value still
 * holding a `<PLACEHOLDER>` and redacts the value from every log record it writes.
 */
export function secretString(description = 'secret value; supply it from the environment, never commit it') {
  const schema = z.string().min(1).describe(description);
  secretSchemas.add(schema);
  return schema;
}

/** True when `schema` (or the schema it wraps in optional/default/nullable) was made by secretString. */
export function isSecretSchema(schema: unknown): boolean {
  let current: any = schema;
  for (let depth = 0; current && depth < 8; depth++) {
    if (secretSchemas.has(current)) return true;
    current = current?._zod?.def?.innerType ?? current?.def?.innerType;
  }
  return false;
}

/** A value such as `<SECRET>` or `<REDIS_PASSWORD>` left in configuration instead of the real secret. */
export function isPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && /^<[^<>]+>$/.test(value.trim());
}
