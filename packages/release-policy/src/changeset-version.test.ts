import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { copyReleaseTree, removeReleaseTree } from './release-tree';
import { fixedGroup, peerWindowProblems, rangeProblems, releaseNotesProblems } from './version-policy';
import { readWorkspacePackages, type WorkspacePackage } from './workspace-packages';

const root = path.resolve(__dirname, '../../..');
const changesetBinary = path.join(root, 'node_modules/.bin/changeset');

let copy: string;
let before: WorkspacePackage[];
let after: WorkspacePackage[];

/** The packages whose version `changeset version` changed. */
const released = () =>
  after.filter((entry) => entry.version !== before.find((old) => old.name === entry.name)?.version);

beforeAll(async () => {
  copy = mkdtempSync(path.join(os.tmpdir(), 'corekit-release-'));
  copyReleaseTree(root, copy);
  before = readWorkspacePackages(copy);
  await promisify(execFile)(changesetBinary, ['version'], { cwd: copy, env: { ...process.env, CI: 'true' } });
  after = readWorkspacePackages(copy);
}, 180_000);

afterAll(() => {
  if (copy) removeReleaseTree(copy);
});

describe('changeset version on the queued changesets (a copy of the tree)', () => {
  it('releases something and consumes every changeset', () => {
    expect(released().length).toBeGreaterThan(0);
    const left = readdirSync(path.join(copy, '.changeset')).filter(
      (file) => file.endsWith('.md') && file !== 'README.md',
    );
    expect(left).toEqual([]);
  });

  it('releases no package as 1.0.0 or later: 0.x packages stay 0.x', () => {
    const crossed = released()
      .filter((entry) => semver.major(before.find((old) => old.name === entry.name)!.version) === 0)
      .filter((entry) => semver.major(entry.version) > 0)
      .map((entry) => `${entry.name}@${entry.version}`);
    expect(crossed).toEqual([]);
  });

  it('moves the fixed group together, to a new version', () => {
    const versionOf = (list: WorkspacePackage[], name: string) =>
      list.find((entry) => entry.name === name)?.version;
    const versions = new Set(fixedGroup.map((name) => versionOf(after, name)));
    expect(versions.size).toBe(1);
    expect(semver.gt(versionOf(after, fixedGroup[0])!, versionOf(before, fixedGroup[0])!)).toBe(true);
  });

  it('leaves every internal dependency and peer range including the new version of what it names', () => {
    expect(rangeProblems(after)).toEqual([]);
  });

  it('writes a changelog per released package, without commit hashes or repeated dependency lines', () => {
    for (const entry of released().filter((candidate) => !candidate.private)) {
      const file = path.join(copy, entry.directory, 'CHANGELOG.md');
      expect(existsSync(file)).toBe(true);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(`# ${entry.name}\n\n## ${entry.version}\n`)).toBe(true);
      expect(text).not.toMatch(/^- [0-9a-f]{7,40}: /m);
      expect(text).not.toContain('Updated dependencies');
    }
  });
});

describe('version policy of the tree as it is', () => {
  it('every published peer on another @corekit package is the 0.x window, never a caret range', () => {
    expect(peerWindowProblems(readWorkspacePackages(root))).toEqual([]);
  });

  it('every published package ships its CHANGELOG.md (listed in files)', () => {
    expect(releaseNotesProblems(readWorkspacePackages(root))).toEqual([]);
  });

  it('every internal range already includes the version of what it names', () => {
    expect(rangeProblems(readWorkspacePackages(root))).toEqual([]);
  });
});
