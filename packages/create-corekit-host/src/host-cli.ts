#!/usr/bin/env node
// corekit-host: check (explain every computed deployment number, fail on stale artifacts), artifacts (rewrite
// them from the configuration), zip (the app-service ZIP). Runs in the folder of a generated host, or --dir <folder>.
import path from 'node:path';
import { buildAppServiceZip } from './app-service-zip';
import { checkHost, writeArtifacts } from './check';

const [command, ...rest] = process.argv.slice(2);
const dirIndex = rest.indexOf('--dir');
const directory = path.resolve(dirIndex >= 0 ? rest[dirIndex + 1] : process.cwd());

try {
  if (command === 'check') {
    const report = checkHost(directory);
    process.stdout.write(report.text);
    process.exitCode = report.stale.length === 0 ? 0 : 1;
  } else if (command === 'artifacts') {
    for (const file of writeArtifacts(directory)) process.stdout.write(`wrote ${file}\n`);
  } else if (command === 'zip') {
    const outIndex = rest.indexOf('--out');
    const output = buildAppServiceZip(
      directory,
      outIndex >= 0 ? path.resolve(rest[outIndex + 1]) : undefined,
    );
    process.stdout.write(
      `wrote ${path.relative(process.cwd(), output)} (startup command: node dist/main.js)\n`,
    );
  } else {
    process.stderr.write(
      'usage: corekit-host check | artifacts | zip [--out file.zip] [--dir <host folder>]\n',
    );
    process.exitCode = 2;
  }
} catch (error) {
  process.stderr.write(`corekit-host ${command}: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
