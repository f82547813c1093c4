// The previous release as the upgrade test installs it: the tarballs `pnpm pack` made of it
// (previous-release/*.tgz, written by scripts/pack-previous-release.ts), published to a local registry the way
// `changeset publish` published them, then installed pinned by the upgrade writer (upgrade-writer/).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalRegistry } from '@corekit/testing/local-registry';
import { runCommand } from '@corekit/testing/run-command';

const here = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));

/** packages/release-roundtrip/previous-release: the tarballs and release.json. */
export const previousReleaseFolder = path.resolve(here, '../previous-release');

/** What the upgrade writer installs by name (pinned exact); the packs of the state the upgrade test reads back. */
export const upgradeWriterPackages = [
  '@corekit/engine-core',
  '@corekit/web-host',
  '@corekit/store-postgres',
  '@corekit/store-redis',
  '@corekit/tenancy',
  '@corekit/tenant-governance',
  '@corekit/tenant-governance-web',
  '@corekit/agents',
  '@corekit/eventing',
  '@corekit/data',
] as const;

/** previous-release/release.json. */
export interface PreviousRelease {
  /** The commit the tarballs were packed at. */
  readonly commit: string;
  readonly subject: string;
  readonly totalBytes: number;
  readonly packages: ReadonlyArray<{
    readonly name: string;
    readonly version: string;
    readonly file: string;
    readonly bytes: number;
    readonly sha512: string;
  }>;
}

export function readPreviousRelease(): PreviousRelease {
  return JSON.parse(
    readFileSync(path.join(previousReleaseFolder, 'release.json'), 'utf8'),
  ) as PreviousRelease;
}

/**
 * Publishes every tarball of the previous release to `registry` (`npm publish <tarball>`, as `changeset publish`
 * published them); answers name → version.
 */
export async function publishPreviousRelease(
  registry: LocalRegistry,
  release: PreviousRelease = readPreviousRelease(),
): Promise<Record<string, string>> {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm|pnpm)_config_/i.test(key)) environment[key] = value;
  const auth = `--${registry.url.replace(/^https?:/, '')}:_authToken=corekit-local-registry`;
  for (const entry of release.packages) {
    await runCommand(
      'npm',
      [
        'publish',
        path.join(previousReleaseFolder, entry.file),
        `--registry=${registry.url}`,
        auth,
        '--access=public',
        '--tag=previous',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
      ],
      {
        cwd: previousReleaseFolder,
        env: { ...environment, npm_config_update_notifier: 'false' },
      },
    );
  }
  return Object.fromEntries(release.packages.map((entry) => [entry.name, entry.version]));
}
