#!/usr/bin/env node
// Runs one package's tests N times, by default while a CPU hog loads the machine, and prints a flake table:
// every test that failed at least once, with how often it passed and failed. Use it before calling a test
// done: a test that fails once in ten runs will fail CI.
//
// Usage: pnpm test:repeat <package> [times=5] [--load=<busy processes, default 1>] [--grep=<test name regex>]
//                         [--file=<test path pattern>]
//   <package>: @corekit/eventing, eventing, or packages/eventing
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const positional = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((argument) => argument.startsWith('--'))
    .map((argument) => {
      const [key, ...value] = argument.slice(2).split('=');
      return [key, value.join('=')];
    }),
);
const known = new Set(['load', 'grep', 'file']);
for (const key of Object.keys(flags)) {
  if (!known.has(key))
    fail(`unknown option --${key} (known: ${[...known].map((name) => `--${name}`).join(', ')})`);
}
if (positional.length === 0)
  fail('usage: pnpm test:repeat <package> [times] [--load=N] [--grep=regex] [--file=pattern]');

const directory = packageDirectory(positional[0]);
const times = Number(positional[1] ?? 5);
if (!Number.isInteger(times) || times < 1) fail(`times must be a positive integer, got ${positional[1]}`);
const load = Number(flags.load ?? 1);
if (!Number.isInteger(load) || load < 0) fail(`--load must be a non-negative integer, got ${flags.load}`);
const packageName = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')).name;

console.log(`== build ${packageName} and what it depends on`);
const build = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', `--filter=${packageName}`, '--output-logs=errors-only'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (build.status !== 0) fail('build failed');

const hogs = Array.from({ length: load }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopHogs = () => hogs.forEach((hog) => hog.kill('SIGKILL'));
process.on('exit', stopHogs);
process.on('SIGINT', () => process.exit(130));

const scratch = mkdtempSync(path.join(os.tmpdir(), 'corekit-repeat-'));
/** test full name -> { passed, failed, firstFailure } */
const results = new Map();
const runSummaries = [];
for (let run = 1; run <= times; run++) {
  const outputFile = path.join(scratch, `run-${run}.json`);
  const args = ['exec', 'jest', '--json', `--outputFile=${outputFile}`];
  if (flags.grep) args.push(`--testNamePattern=${flags.grep}`);
  if (flags.file) args.push(flags.file);
  const started = Date.now();
  const jest = await new Promise((resolve) => {
    const child = spawn('pnpm', args, {
      cwd: directory,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-20000)));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  if (!existsSync(outputFile)) {
    console.log(`run ${run}: jest wrote no results (exit ${jest.code})\n${jest.stderr}`);
    runSummaries.push({ run, failed: -1 });
    continue;
  }
  const report = JSON.parse(readFileSync(outputFile, 'utf8'));
  let failed = 0;
  for (const suite of report.testResults) {
    if (suite.assertionResults.length === 0 && suite.status === 'failed') {
      record(`${path.relative(directory, suite.name)} (suite failed to run)`, false, suite.message);
      failed++;
    }
    for (const test of suite.assertionResults) {
      if (test.status !== 'passed' && test.status !== 'failed') continue;
      const name = `${path.relative(directory, suite.name)} › ${test.fullName}`;
      record(name, test.status === 'passed', test.failureMessages?.[0]);
      if (test.status === 'failed') failed++;
    }
  }
  runSummaries.push({ run, failed });
  console.log(
    `run ${run}/${times}: ${report.numPassedTests} passed, ${report.numFailedTests} failed (${((Date.now() - started) / 1000).toFixed(1)} s, load ${load})`,
  );
}
stopHogs();
rmSync(scratch, { recursive: true, force: true });

const flaky = [...results].filter(([, tally]) => tally.failed > 0);
console.log(`\n== flake table: ${packageName}, ${times} runs, ${load} busy process(es) beside it`);
if (flaky.length === 0) {
  console.log(`no test failed (${results.size} tests, each run ${times} times)`);
} else {
  console.log('passed failed  test');
  for (const [name, tally] of flaky.sort((a, b) => b[1].failed - a[1].failed)) {
    console.log(`${String(tally.passed).padStart(6)} ${String(tally.failed).padStart(6)}  ${name}`);
    if (tally.firstFailure) console.log(`               first failure: ${firstLine(tally.firstFailure)}`);
  }
}
process.exit(flaky.length === 0 && runSummaries.every((summary) => summary.failed === 0) ? 0 : 1);

function record(name, passed, failure) {
  const tally = results.get(name) ?? { passed: 0, failed: 0, firstFailure: undefined };
  if (passed) tally.passed++;
  else {
    tally.failed++;
    tally.firstFailure ??= failure;
  }
  results.set(name, tally);
}

function firstLine(message) {
  return (
    message
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ''
  ).slice(0, 200);
}

function packageDirectory(name) {
  const candidates = [
    path.resolve(root, name),
    path.join(root, 'packages', name.replace(/^@corekit\//, '')),
    path.join(root, 'examples', name.replace(/^@corekit\/example-/, '')),
  ];
  const found = candidates.find((candidate) => existsSync(path.join(candidate, 'package.json')));
  if (!found)
    fail(
      `no package ${name} (looked in ${candidates.map((candidate) => path.relative(root, candidate)).join(', ')})`,
    );
  return found;
}

function fail(message) {
  console.error(`test:repeat: ${message}`);
  process.exit(2);
}
