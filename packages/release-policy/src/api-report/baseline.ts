// The released surface a package's current report is compared with: its report as of the last release of the
// package (the last commit that changed the `version` of its package.json: `changeset version`), or, when the
// report did not exist yet then, as first committed.
import { execFileSync } from 'node:child_process';

export interface Baseline {
  /** The report text, or undefined when git holds none (a new package, or no history). */
  readonly report: string | undefined;
  /** Where it comes from, for messages: "0.1.0 (commit 1a2b3c4)". */
  readonly description: string;
}

function git(root: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', [...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
}

/** `manifest` and `report` are paths relative to the root, with forward slashes. */
export function releasedBaseline(root: string, manifest: string, report: string, version: string): Baseline {
  const release = git(root, ['log', '-1', '--format=%H', '-G"version":', '--', manifest])?.trim();
  if (release) {
    const text = git(root, ['show', `${release}:${report}`]);
    if (text !== undefined)
      return { report: text, description: `${version} (commit ${release.slice(0, 7)})` };
  }
  const introduced = git(root, ['log', '--diff-filter=A', '--format=%H', '--', report])
    ?.trim()
    .split('\n')
    .pop();
  if (introduced) {
    const text = git(root, ['show', `${introduced}:${report}`]);
    if (text !== undefined)
      return { report: text, description: `the first committed report (commit ${introduced.slice(0, 7)})` };
  }
  return { report: undefined, description: 'nothing committed' };
}
