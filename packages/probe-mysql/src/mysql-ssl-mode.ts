import { sslModeFromSpelling } from '@corekit/probe-kit';

/** TLS modes, as MySqlConnector names them. */
export const mySqlSslModes = ['None', 'Preferred', 'Required', 'VerifyCA', 'VerifyFull'] as const;
export type MySqlSslMode = (typeof mySqlSslModes)[number];

/** The spellings of MySqlConnector and of the mysql client (`DISABLED`, `VERIFY_IDENTITY`), normalized. */
export const mySqlSslModeSpellings: Readonly<Record<string, MySqlSslMode>> = {
  none: 'None',
  disabled: 'None',
  preferred: 'Preferred',
  required: 'Required',
  verifyca: 'VerifyCA',
  verifyfull: 'VerifyFull',
  verifyidentity: 'VerifyFull',
};

/** `VERIFY_IDENTITY`, `verify-full` and `VerifyFull` all name VerifyFull; anything else is returned as is. */
export function normalizeMySqlSslMode(value: unknown): unknown {
  return typeof value === 'string' ? (sslModeFromSpelling(mySqlSslModeSpellings, value) ?? value) : value;
}
