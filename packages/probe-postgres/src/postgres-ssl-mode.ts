import { sslModeFromSpelling } from '@corekit/probe-kit';

/** TLS modes, as libpq and Npgsql name them. */
export const postgresSslModes = ['Disable', 'Allow', 'Prefer', 'Require', 'VerifyCA', 'VerifyFull'] as const;
export type PostgresSslMode = (typeof postgresSslModes)[number];

/** Each mode by its normalized spelling (`verifyfull`). */
export const postgresSslModeSpellings: Readonly<Record<string, PostgresSslMode>> = Object.fromEntries(
  postgresSslModes.map((mode) => [mode.toLowerCase(), mode]),
);

/** `verify-full`, `VERIFY_FULL` and `VerifyFull` all name VerifyFull; anything else is returned as is. */
export function normalizePostgresSslMode(value: unknown): unknown {
  return typeof value === 'string' ? (sslModeFromSpelling(postgresSslModeSpellings, value) ?? value) : value;
}
