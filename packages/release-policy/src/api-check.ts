// `pnpm api:check` / `pnpm api:update` (docs/releasing.md, "API reports"). Generates the API Extractor report of
// every published package from declarations (one TypeScript program for all of them) and
// - with --update, writes the reports that changed to packages/<folder>/api/<folder>.api.md;
// - otherwise fails when a committed report is out of date, when a package's surface changed since its last
//   release without a pending changeset of the bump the version policy asks for (naming the package and the
//   change), or when @arethetypeswrong finds a problem in the type exports of a built package (ESM and CommonJS
//   consumers; packages without a built dist/index.d.ts are listed, not checked: `pnpm release` builds
//   everything first).
//
// Options: --update; --only <folder>[,<folder>] (those packages only); --skip-types (no type-export check).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import getReleasePlan from '@changesets/get-release-plan';
import { releasedBaseline } from './api-report/baseline';
import { emitDeclarations } from './api-report/declarations';
import { generateReports } from './api-report/reports';
import { bumpProblem, type BumpType, type PendingRelease } from './api-report/required-bump';
import { compareSurfaces, describeChange, isUnchanged, parseReport } from './api-report/surface-diff';
import { typeExportProblems } from './api-report/type-exports';
import { fixedGroup } from './version-policy';
import { readWorkspacePackages, type WorkspacePackage } from './workspace-packages';

const root = path.resolve(import.meta.dirname, '../../..');
const argumentsGiven = process.argv.slice(2);
const update = argumentsGiven.includes('--update');
const skipTypes = argumentsGiven.includes('--skip-types');
const only = argumentsGiven.includes('--only')
  ? (argumentsGiven[argumentsGiven.indexOf('--only') + 1] ?? '').split(',').filter(Boolean)
  : undefined;
const durations: string[] = [];

async function timed<T>(step: string, work: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  const result = await work();
  durations.push(`${step} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** The published packages under packages/ (folder → package). */
function publishedPackages(): Map<string, WorkspacePackage> {
  const found = new Map<string, WorkspacePackage>();
  for (const entry of readWorkspacePackages(root)) {
    const [parent, folder] = entry.directory.split('/');
    if (parent !== 'packages' || entry.private) continue;
    if (only && !only.includes(folder!)) continue;
    found.set(folder!, entry);
  }
  return found;
}

/**
 * Packages other packages rely on across 0.x minors: the abstractions and every package named as a peer (the
 * window `>=0.x.y <1.0.0` lets a new minor reach dependents already published). A package named only in
 * `dependencies` (a kit such as callback-kit) is installed at the caret range its dependent was released with
 * (`^0.1.0` never installs 0.2.0), so its minors reach a dependent only when that dependent is released again,
 * built against them: a removal there is a minor (docs/releasing.md, "Versions").
 */
function contractPackages(): Set<string> {
  const all = readWorkspacePackages(root).filter((entry) => !entry.private);
  const names = new Set(['@corekit/abstractions']);
  for (const entry of all)
    for (const peer of Object.keys(entry.peerDependencies)) if (peer.startsWith('@corekit/')) names.add(peer);
  return names;
}

/** What the pending changesets release each package as, with the text of the changesets behind it. */
async function pendingReleases(): Promise<(name: string) => PendingRelease> {
  const plan = await getReleasePlan(root);
  const summaries = (ids: Iterable<string>) =>
    plan.changesets
      .filter((changeset) => [...ids].includes(changeset.id))
      .map((changeset) => changeset.summary);
  return (name) => {
    const release = plan.releases.find((entry) => entry.name === name);
    // A fixed group's changeset releases all four packages: its text counts for each of them.
    const group = (fixedGroup as readonly string[]).includes(name) ? fixedGroup : [name];
    const ids = plan.changesets
      .filter((changeset) =>
        changeset.releases.some((entry) => (group as readonly string[]).includes(entry.name)),
      )
      .map((changeset) => changeset.id);
    return {
      type: (release?.type ?? 'none') as BumpType,
      summaries: summaries(new Set([...(release?.changesets ?? []), ...ids])),
    };
  };
}

const reportPath = (folder: string) => `packages/${folder}/api/${folder}.api.md`;

async function main(): Promise<number> {
  const packages = publishedPackages();
  const folders = [...packages.keys()];
  const tree = await timed('declarations (tsc, one program)', () => emitDeclarations(root, folders));
  let reports: Map<string, string>;
  try {
    reports = await timed('API Extractor reports', () => generateReports(root, tree, folders));
  } finally {
    tree.remove();
  }
  if (update) return writeReports(reports);
  const problems: string[] = [];
  const pending = await timed('release plan of the pending changesets', () => pendingReleases());
  const contracts = contractPackages();
  for (const [folder, generated] of reports) {
    const entry = packages.get(folder)!;
    problems.push(...reportProblems(folder, entry, generated, contracts, pending));
  }
  const notBuilt: string[] = [];
  if (!skipTypes) {
    await timed('type exports (@arethetypeswrong/core)', async () => {
      for (const folder of folders) {
        const directory = path.join(root, 'packages', folder);
        // Built: the entry point's declarations exist (a dist/ holding only part of a build is not checked).
        if (!existsSync(path.join(directory, 'dist/index.d.ts'))) {
          notBuilt.push(folder);
          continue;
        }
        for (const problem of await typeExportProblems(directory))
          problems.push(`${packages.get(folder)!.name}: type exports: ${problem}`);
      }
    });
  }
  const built = folders.length - notBuilt.length;
  console.log(`api:check: ${folders.length} packages; ${durations.join('; ')}`);
  if (!skipTypes && notBuilt.length > 0)
    console.log(`type exports checked on the ${built} built packages; not built: ${notBuilt.join(', ')}`);
  if (problems.length > 0) {
    console.error(`API check failed:\n- ${problems.join('\n- ')}`);
    return 1;
  }
  console.log('API reports up to date; every surface change has the changeset it needs.');
  return 0;
}

function reportProblems(
  folder: string,
  entry: WorkspacePackage,
  generated: string,
  contracts: ReadonlySet<string>,
  pending: (name: string) => PendingRelease,
): string[] {
  const problems: string[] = [];
  const file = path.join(root, reportPath(folder));
  const committed = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (committed === undefined)
    problems.push(`${reportPath(folder)} is missing: run pnpm api:update and commit it`);
  else if (committed !== generated) {
    const change = compareSurfaces(parseReport(committed), parseReport(generated));
    const what = isUnchanged(change) ? 'its text differs' : describeChange(change);
    problems.push(`${reportPath(folder)} is out of date (${what}): run pnpm api:update and commit it`);
  }
  const baseline = releasedBaseline(
    root,
    `packages/${folder}/package.json`,
    reportPath(folder),
    entry.version,
  );
  if (baseline.report !== undefined) {
    const change = compareSurfaces(parseReport(baseline.report), parseReport(generated));
    const problem = bumpProblem(
      entry.name,
      change,
      contracts.has(entry.name),
      pending(entry.name),
      baseline.description,
    );
    if (problem) problems.push(problem);
  }
  return problems;
}

function writeReports(reports: ReadonlyMap<string, string>): number {
  let written = 0;
  for (const [folder, text] of reports) {
    const file = path.join(root, reportPath(folder));
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    written += 1;
  }
  console.log(`api:update: ${written} of ${reports.size} reports written; ${durations.join('; ')}`);
  return 0;
}

process.exitCode = await main();
