import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The stores the upgrade is tested on. */
export const upgradeProviders = ['file', 'postgresql', 'redis'] as const;
export type UpgradeProvider = (typeof upgradeProviders)[number];

/**
 * The fixtures `scripts/write-upgrade-fixtures.ts` writes: `file/` (the data folder), `postgresql.sql` (pg_dump
 * of the store table), `redis.json` (the keys under the prefix) and `source.json` (the commit that wrote them
 * and what its surfaces answered on each provider).
 */
export const upgradeFixturesFolder = path.join(
  typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
);

/** `source.json`: where the fixtures come from and what the previous release answered. */
export interface UpgradeFixtureSource {
  readonly commit: string;
  readonly subject: string;
  readonly surfaces: Readonly<Record<UpgradeProvider, Readonly<Record<string, unknown>>>>;
}

export function readUpgradeFixtureSource(): UpgradeFixtureSource {
  return JSON.parse(
    readFileSync(path.join(upgradeFixturesFolder, 'source.json'), 'utf8'),
  ) as UpgradeFixtureSource;
}
