import semver from 'semver';
import type { WorkspacePackage } from './workspace-packages';

/** The packages that always carry one version (`fixed` in .changeset/config.json). */
export const fixedGroup = [
  '@corekit/abstractions',
  '@corekit/engine-core',
  '@corekit/web-host',
  '@corekit/worker-host',
] as const;

/**
 * The window a peer range on another @corekit package covers while the packages are 0.x: every release
 * from the lowest one the pack needs up to, not including, 1.0.0. A minor release inside it never breaks a
 * pack; a change that would is a new pack contract specification and a major release (docs/releasing.md).
 */
export const peerWindowPattern = /^workspace:>=0\.\d+\.\d+ <1\.0\.0$/;

/**
 * The range a workspace specifier stands for once published, given the version of its target: pnpm writes
 * `workspace:^` as `^<version>`, `workspace:~` as `~<version>`, `workspace:*` as `<version>`, and any other
 * `workspace:<range>` as the range.
 */
export function publishedRange(specifier: string, targetVersion: string): string {
  if (!specifier.startsWith('workspace:')) return specifier;
  const range = specifier.slice('workspace:'.length);
  if (range === '*') return targetVersion;
  if (range === '^' || range === '~') return `${range}${targetVersion}`;
  return range;
}

/** Every internal dependency or peer range that would not accept the version of the package it names. */
export function rangeProblems(packages: readonly WorkspacePackage[]): string[] {
  const versions = new Map(packages.map((entry) => [entry.name, entry.version]));
  const problems: string[] = [];
  for (const entry of packages) {
    for (const [kind, ranges] of [
      ['dependency', entry.dependencies],
      ['peer', entry.peerDependencies],
    ] as const) {
      for (const [name, specifier] of Object.entries(ranges)) {
        const version = versions.get(name);
        if (version === undefined) continue;
        const range = publishedRange(specifier, version);
        if (!semver.satisfies(version, range)) {
          problems.push(`${entry.name} ${kind} ${name}@"${range}" does not include ${name}@${version}`);
        }
      }
    }
  }
  return problems;
}

/**
 * Published packages whose peer on another @corekit package is not the policy's window. A caret peer
 * (`workspace:^`, `^0.1.0` once published) leaves its range at the target's next minor, and changesets then
 * releases the peer dependent as 1.0.0.
 */
export function peerWindowProblems(packages: readonly WorkspacePackage[]): string[] {
  const internal = new Set(packages.map((entry) => entry.name));
  return packages
    .filter((entry) => !entry.private)
    .flatMap((entry) =>
      Object.entries(entry.peerDependencies)
        .filter(([name, specifier]) => internal.has(name) && !peerWindowPattern.test(specifier))
        .map(
          ([name, specifier]) =>
            `${entry.name} peer ${name} is "${specifier}", not "workspace:>=0.x.y <1.0.0"`,
        ),
    );
}

/** Published packages whose tarball would leave out the release notes `changeset version` writes. */
export function releaseNotesProblems(packages: readonly WorkspacePackage[]): string[] {
  return packages
    .filter((entry) => !entry.private && !entry.files.includes('CHANGELOG.md'))
    .map((entry) => `${entry.name} files does not list CHANGELOG.md`);
}
