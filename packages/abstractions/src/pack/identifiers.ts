import { z } from 'zod';

/** Letters, digits, then letters, digits, `.`, `_`, `:` and `-`: the shape of every id the engine registers. */
export const identifierPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** The one identifier schema (module, catalog, operation, job, store, tool, collection ids...). */
export const identifierSchema = z
  .string()
  .max(200)
  .regex(identifierPattern, 'must start with a letter or digit and hold only letters, digits, . _ : -');

/** True when `value` is a well-formed identifier. */
export function isIdentifier(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 200 && identifierPattern.test(value);
}
