/** TLS modes, as libpq and Npgsql name them. */
export const postgresSslModes = ['Disable', 'Allow', 'Prefer', 'Require', 'VerifyCA', 'VerifyFull'] as const;
export type PostgresSslMode = (typeof postgresSslModes)[number];

const sslModeByNormalizedName = new Map(postgresSslModes.map((mode) => [mode.toLowerCase(), mode]));

/** `verify-full`, `VERIFY_FULL` and `VerifyFull` all name VerifyFull; anything else is returned as is. */
export function normalizePostgresSslMode(value: unknown): unknown {
  return typeof value === 'string'
    ? (sslModeByNormalizedName.get(value.toLowerCase().replace(/[\s_-]+/g, '')) ?? value)
    : value;
}
