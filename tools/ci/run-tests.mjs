#!/usr/bin/env node
// Runs every package's tests through turbo and keeps going after a failure (`--continue`), so one red package
// never hides the others. At the end it prints, from turbo's run summary and each package's jest output:
// every package's duration (slowest first), the failing packages with their failing tests, and one closing
// line that counts every test that ran and names the Node.js version it ran on (the `node` first on PATH:
// turbo, jest and the tests' child processes all use it). Exits non-zero when any package failed.
//
// Usage: node tools/ci/run-tests.mjs [extra turbo arguments, e.g. --filter=@corekit/eventing]
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const runsDirectory = path.join(root, '.turbo', 'runs');
mkdirSync(runsDirectory, { recursive: true });
const startedAt = Date.now();

const turbo = spawn(
  'pnpm',
  ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue', '--summarize', ...process.argv.slice(2)],
  { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env },
);

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

turbo.stdout.on('data', (chunk) => take(chunk, process.stdout));
turbo.stderr.on('data', (chunk) => take(chunk, process.stderr));

const exitCode = await new Promise((resolve) => turbo.on('close', (code) => resolve(code ?? 1)));
if (pending) file(pending);

/** The newest run summary turbo wrote during this run, if any. */
function latestSummary() {
  const files = readdirSync(runsDirectory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(runsDirectory, name))
    .filter((file) => statSync(file).mtimeMs >= startedAt - 1000)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) return undefined;
  try {
    return JSON.parse(readFileSync(files[0], 'utf8'));
  } catch {
    return undefined;
  }
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

const summary = latestSummary();
const tasks = (summary?.tasks ?? [])
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
