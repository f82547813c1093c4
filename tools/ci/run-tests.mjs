#!/usr/bin/env node
// Runs every package's tests through turbo, side by side, and keeps going after a failure (`--continue`), so
// one red package never hides the others. Every test owns its ports, folders, schemas and keys (the testing
// README; `tools/ci/check-test-isolation.mjs` runs first and fails a test file that uses a fixed port), so
// packages run in parallel: as many turbo tasks as the machine has cores (COREKIT_TEST_CONCURRENCY to
// change), each jest with one worker (COREKIT_JEST_WORKERS). A package's package.json may declare
// `"corekitTests": { "first": "<why>" }` (a long suite, or one that builds what it tests: these run in a lane of
// their own that starts at once, COREKIT_TEST_FIRST_CONCURRENCY at a time, default 2) or
// `{ "alone": "<why>" }` (needs the machine to itself: run afterwards, one at a time). A jest that does not
// exit after its tests completed is stopped after COREKIT_JEST_EXIT_GRACE_SECONDS and its package fails.
// At the end it prints, from turbo's run summaries and each package's jest output: every package's duration
// (slowest first), the ten slowest test files, the failing packages with their failing tests, and one closing
// line that counts every test that ran and names the Node.js version it ran on (the `node` first on PATH:
// turbo, jest and the tests' child processes all use it). Exits non-zero when any package failed. Test
// results are cached by turbo (see the fingerprint below).
//
// Usage: node tools/ci/run-tests.mjs [extra turbo arguments, e.g. --filter=@corekit/eventing]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers';
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

// Turbo caches a package's test result keyed on its files, its dependencies' files (the `transit` task), the
// shared jest preset and this fingerprint of what the tests run against: the Node.js version and the versions
// of the services and browser installed from Debian packages. A change to any of them runs the tests again.
process.env.COREKIT_TEST_FINGERPRINT = testEnvironmentFingerprint();

function testEnvironmentFingerprint() {
  const query = spawnSync('dpkg-query', ['-W', '-f', '${Package}=${Version}\n'], {
    encoding: 'utf8',
  });
  const services =
    /^(postgresql-\d+|mariadb-server|redis-server|rabbitmq-server|mosquitto|nats-server|memcached|clickhouse-server|chromium)=/;
  const installed = (query.stdout ?? '')
    .split('\n')
    .filter((line) => services.test(line))
    .sort();
  return [`node=${process.version}`, ...installed].join(' ');
}

const cores = os.availableParallelism();
const concurrency = positiveInteger('COREKIT_TEST_CONCURRENCY', cores);
const firstConcurrency = positiveInteger('COREKIT_TEST_FIRST_CONCURRENCY', 2);
const jestWorkers = positiveInteger('COREKIT_JEST_WORKERS', Math.max(1, Math.floor(cores / concurrency)));
// The long suites' jest gets a worker per core: their files mostly wait on child processes and servers, and once
// the other lane has ended they are all that runs, so one file at a time would leave the machine idle at the end.
const firstJestWorkers = positiveInteger('COREKIT_TEST_FIRST_JEST_WORKERS', cores);
const alone = packagesDeclaring('alone');
const first = packagesDeclaring('first').filter((name) => !alone.includes(name));
const extra = process.argv.slice(2);
console.log(
  `== tests: ${concurrency} packages at a time, ${jestWorkers} jest worker(s) each` +
    (first.length
      ? `; beside them from the start, ${firstConcurrency} at a time with ${firstJestWorkers} jest worker(s): ${first.join(', ')}`
      : '') +
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

/** Every workspace package's manifest and folder. */
function workspacePackages() {
  const found = [];
  for (const group of ['packages', 'examples', 'bench']) {
    const directory = path.join(root, group);
    for (const entry of readdirSync(directory)) {
      try {
        const folder = path.join(directory, entry);
        found.push({ folder, manifest: JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) });
      } catch {
        continue;
      }
    }
  }
  return found;
}

/**
 * Workspace packages whose package.json declares `"corekitTests": { "<key>": "<why>" }`: `alone` (needs the
 * machine to itself: run afterwards, one at a time) or `first` (a long suite, or one that builds what it tests:
 * a lane of its own that starts at once, one package at a time, beside the others, so the longest suites do
 * not start last and no two lanes build the same package).
 */
function packagesDeclaring(key) {
  return workspacePackages()
    .filter(({ manifest }) => manifest.corekitTests?.[key])
    .map(({ manifest }) => manifest.name)
    .sort();
}

/** One turbo run of the test task; its output goes to ours and is filed by package. */
function runTurbo(turboArguments, workers = jestWorkers) {
  const turbo = spawn(
    'pnpm',
    ['exec', 'turbo', 'run', 'test', '--continue', '--summarize', ...turboArguments],
    // The jest preset reads the worker count (not a `--` argument: turbo would hand that to the builds too).
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, COREKIT_JEST_WORKERS: String(workers) },
    },
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

/** The run summaries turbo announced ("Summary: .turbo/runs/<id>.json"). */
const summaryFiles = [];

function file(raw) {
  const line = raw.replace(ansi, '');
  const summary = /Summary:\s+(\S+\.json)/.exec(line);
  if (summary) summaryFiles.push(summary[1]);
  const match = /^(@?[\w./-]+):test: ?(.*)$/.exec(line);
  if (!match) return;
  const [, name, text] = match;
  if (!outputByPackage.has(name)) outputByPackage.set(name, []);
  outputByPackage.get(name).push(text);
  if (text.startsWith('Jest did not exit one second after the test run has completed')) watchExit(name);
}

// A jest whose tests finished but that a leftover handle (a server, socket or timer a test did not stop) keeps
// alive would hold the whole run until CI's limit. After a grace period it is stopped and its package fails,
// named as such, so the leak is found rather than waited for.
const exitGraceSeconds = positiveInteger('COREKIT_JEST_EXIT_GRACE_SECONDS', 60);
const folderByName = new Map(workspacePackages().map(({ folder, manifest }) => [manifest.name, folder]));
/** Packages whose jest had to be stopped after its tests completed. */
const hungPackages = new Set();

function watchExit(name) {
  const folder = folderByName.get(name);
  if (!folder) return;
  setTimeout(() => {
    const stopped = stopJestIn(folder);
    if (stopped > 0) {
      hungPackages.add(name);
      console.error(
        `== ${name}: jest did not exit ${exitGraceSeconds} s after its tests completed; stopped it`,
      );
    }
  }, exitGraceSeconds * 1000).unref();
}

/** Stops the jest processes running in a folder (Linux: read from /proc); answers how many. */
function stopJestIn(folder) {
  let stopped = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cwd === folder && /jest(\.js)?\0/.test(command) && !command.startsWith('sh\0')) {
        process.kill(Number(pid), 'SIGTERM');
        stopped += 1;
      }
    } catch {
      continue;
    }
  }
  return stopped;
}

const filtered = extra.some((argument) => argument.startsWith('--filter'));
const lanes = filtered
  ? [[`--concurrency=${concurrency}`, ...extra]]
  : [
      // The lane that starts at once: the long suites and those that build first, two at a time (turbo builds
      // what they share once), beside the other lane.
      first.length
        ? [`--concurrency=${firstConcurrency}`, ...first.map((name) => `--filter=${name}`), ...extra]
        : undefined,
      [`--concurrency=${concurrency}`, ...[...first, ...alone].map((name) => `--filter=!${name}`), ...extra],
    ].filter(Boolean);
const laneCodes = await Promise.all(
  lanes.map((lane, index) =>
    runTurbo(lane, !filtered && first.length && index === 0 ? firstJestWorkers : jestWorkers),
  ),
);
const aloneCode =
  !filtered && alone.length > 0
    ? await runTurbo(['--concurrency=1', ...alone.map((name) => `--filter=${name}`), ...extra])
    : 0;
const exitCode = laneCodes.find((code) => code !== 0) ?? aloneCode;
if (pending) file(pending);

/** The run summaries turbo wrote for this run's invocations (it prints each one's path). */
function summaries() {
  return summaryFiles.flatMap((file) => {
    try {
      return [JSON.parse(readFileSync(path.resolve(root, file), 'utf8'))];
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
for (const name of hungPackages) failedPackages.add(name);
for (const [name, lines] of outputByPackage) {
  if (counts(lines).failed > 0) failedPackages.add(name);
}
if (failedPackages.size > 0) {
  console.log('\n== failing packages and tests');
  for (const name of [...failedPackages].sort()) {
    const tests = failingTests(outputByPackage.get(name) ?? []);
    const hung = hungPackages.has(name)
      ? ' (its tests completed but jest did not exit: a test left a server, socket or timer open; run it with --detectOpenHandles)'
      : '';
    console.log(`${name}${hung || (tests.length ? '' : ' (no jest failure named: see its output above)')}`);
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
