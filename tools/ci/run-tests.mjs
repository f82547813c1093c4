#!/usr/bin/env node
// Runs every package's tests through turbo, side by side, and keeps going after a failure (`--continue`), so
// one red package never hides the others. Every test owns its ports, folders, schemas and keys (the testing
// README; `tools/ci/check-test-isolation.mjs` runs first and fails a test file that uses a fixed port), so
// packages run in parallel: as many turbo tasks as the machine has cores (COREKIT_TEST_CONCURRENCY to
// change), each jest with one worker (COREKIT_JEST_WORKERS). A package whose tests truly need the machine
// alone declares it in its package.json (`"corekitTests": { "alone": "<why>" }`); those run afterwards, one
// at a time. At the end it prints, from turbo's run summaries and each package's jest output: every package's
// duration (slowest first), the ten slowest test files, the failing packages with their failing tests, and
// one closing line that counts every test that ran and names the Node.js version it ran on (the `node` first
// on PATH: turbo, jest and the tests' child processes all use it). Exits non-zero when any package failed.
//
// Usage: node tools/ci/run-tests.mjs [extra turbo arguments, e.g. --filter=@corekit/eventing]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const runsDirectory = path.join(root, '.turbo', 'runs');
mkdirSync(runsDirectory, { recursive: true });
const startedAt = Date.now();

const isolation = spawnSync(process.execPath, [path.join(root, 'tools/ci/check-test-isolation.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (isolation.status !== 0) process.exit(isolation.status ?? 1);

const cores = os.availableParallelism();
const concurrency = positiveInteger('COREKIT_TEST_CONCURRENCY', cores);
const jestWorkers = positiveInteger('COREKIT_JEST_WORKERS', Math.max(1, Math.floor(cores / concurrency)));
const alone = packagesTestedAlone();
const extra = process.argv.slice(2);
console.log(
  `== tests: ${concurrency} packages at a time, ${jestWorkers} jest worker(s) each` +
    (alone.length ? `; then alone, one at a time: ${alone.join(', ')}` : ''),
);

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a positive integer, got ${raw}`);
    process.exit(2);
  }
  return value;
}

/** Workspace packages whose package.json says `"corekitTests": { "alone": "<why>" }`. */
function packagesTestedAlone() {
  const names = [];
  for (const group of ['packages', 'examples', 'bench']) {
    const directory = path.join(root, group);
    for (const entry of readdirSync(directory)) {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(path.join(directory, entry, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (manifest.corekitTests?.alone) names.push(manifest.name);
    }
  }
  return names.sort();
}

/** One turbo run of the test task; its output goes to ours and is filed by package. */
function runTurbo(turboArguments) {
  const turbo = spawn(
    'pnpm',
    [
      'exec',
      'turbo',
      'run',
      'test',
      '--continue',
      '--summarize',
      ...turboArguments,
      '--',
      `--maxWorkers=${jestWorkers}`,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env },
  );
  turbo.stdout.on('data', (chunk) => take(chunk, process.stdout));
  turbo.stderr.on('data', (chunk) => take(chunk, process.stderr));
  return new Promise((resolve) => turbo.on('close', (code) => resolve(code ?? 1)));
}

/** Per package: the jest output lines, in order. */
const outputByPackage = new Map();
let pending = '';
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function take(chunk, stream) {
  stream.write(chunk);
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) file(line);
}

function file(raw) {
  const line = raw.replace(ansi, '');
  const match = /^(@?[\w./-]+):test: ?(.*)$/.exec(line);
  if (!match) return;
  const [, name, text] = match;
  if (!outputByPackage.has(name)) outputByPackage.set(name, []);
  outputByPackage.get(name).push(text);
}

const parallelCode = await runTurbo([
  `--concurrency=${concurrency}`,
  ...alone.map((name) => `--filter=!${name}`),
  ...extra,
]);
let aloneCode = 0;
const aloneSelected = alone.filter(
  (name) => !extra.some((argument) => argument.startsWith('--filter')) || extra.includes(`--filter=${name}`),
);
if (aloneSelected.length > 0) {
  aloneCode = await runTurbo([
    '--concurrency=1',
    ...aloneSelected.map((name) => `--filter=${name}`),
    ...extra.filter((argument) => !argument.startsWith('--filter')),
  ]);
}
const exitCode = parallelCode || aloneCode;
if (pending) file(pending);

/** The run summaries turbo wrote during this run. */
function summaries() {
  return readdirSync(runsDirectory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(runsDirectory, name))
    .filter((file) => statSync(file).mtimeMs >= startedAt - 1000)
    .flatMap((file) => {
      try {
        return [JSON.parse(readFileSync(file, 'utf8'))];
      } catch {
        return [];
      }
    });
}

/** Sums jest's "Tests:" lines of one package's output (a package may run several jest invocations). */
function counts(lines) {
  const total = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const line of lines) {
    const match = /^Tests:\s+(.*)\d+ total/.exec(line.trim());
    if (!match) continue;
    for (const key of Object.keys(total)) {
      total[key] += Number((new RegExp(`(\\d+) ${key}`).exec(match[1]) ?? [0, 0])[1]);
    }
  }
  return total;
}

/** The failing tests jest named in a package's output ("● Suite › test"), without console blocks. */
function failingTests(lines) {
  const names = new Set();
  for (const line of lines) {
    const match = /^\s*● (.+)$/.exec(line);
    if (match && !match[1].startsWith('Console')) names.add(match[1].trim());
  }
  return [...names];
}

const tasks = summaries()
  .flatMap((summary) => summary.tasks ?? [])
  .filter((task) => task.task === 'test')
  .map((task) => ({
    name: task.package,
    seconds: (task.execution?.endTime - task.execution?.startTime) / 1000,
    exitCode: task.execution?.exitCode,
  }));

const width = Math.max(10, ...tasks.map((task) => task.name.length));
const seconds = (value) => (Number.isFinite(value) ? `${value.toFixed(1)} s` : '-');
console.log('\n== test durations by package (slowest first)');
for (const task of [...tasks].sort((a, b) => (b.seconds || 0) - (a.seconds || 0))) {
  const tally = counts(outputByPackage.get(task.name) ?? []);
  console.log(
    `${task.name.padEnd(width)}  ${seconds(task.seconds).padStart(9)}  ${tally.passed} passed` +
      (tally.failed ? `, ${tally.failed} failed` : '') +
      (tally.skipped ? `, ${tally.skipped} skipped` : '') +
      (task.exitCode ? `  (exit ${task.exitCode})` : ''),
  );
}

/** Jest's "PASS src/x.test.ts (12.3 s)" lines: the test files that took long enough for jest to time them. */
function timedFiles() {
  const files = [];
  for (const [name, lines] of outputByPackage) {
    for (const line of lines) {
      const match = /^(?:PASS|FAIL)\s+(\S+)\s+\(([\d.]+) s\)/.exec(line.trim());
      if (match) files.push({ name: `${name} ${match[1]}`, seconds: Number(match[2]) });
    }
  }
  return files.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
}
const slowest = timedFiles();
if (slowest.length > 0) {
  console.log('\n== the ten slowest test files');
  for (const entry of slowest) console.log(`${seconds(entry.seconds).padStart(9)}  ${entry.name}`);
}

const failedPackages = new Set(tasks.filter((task) => task.exitCode !== 0).map((task) => task.name));
for (const [name, lines] of outputByPackage) {
  if (counts(lines).failed > 0) failedPackages.add(name);
}
if (failedPackages.size > 0) {
  console.log('\n== failing packages and tests');
  for (const name of [...failedPackages].sort()) {
    const tests = failingTests(outputByPackage.get(name) ?? []);
    console.log(`${name}${tests.length ? '' : ' (no jest failure named: see its output above)'}`);
    for (const test of tests) console.log(`  ✕ ${test}`);
  }
}

const total = { passed: 0, failed: 0, skipped: 0 };
for (const lines of outputByPackage.values()) {
  const tally = counts(lines);
  total.passed += tally.passed;
  total.failed += tally.failed;
  total.skipped += tally.skipped;
}
const elapsed = ((Date.now() - startedAt) / 1000).toFixed(0);
console.log(
  `\ntests: ${total.passed} passed, ${total.failed} failed` +
    (total.skipped ? `, ${total.skipped} skipped` : '') +
    `; packages: ${tasks.length - failedPackages.size} passed, ${failedPackages.size} failed; ${elapsed} s` +
    ` on Node.js ${process.version}`,
);
process.exit(exitCode !== 0 || failedPackages.size > 0 ? 1 : 0);
