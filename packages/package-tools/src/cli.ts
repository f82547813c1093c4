#!/usr/bin/env node
// The `corekit-package` bin: parses nothing itself, so the whole command surface is testable in-process.
import { runPackageCommand } from './run-package-command';

const output = {
  out: (line: string) => void process.stdout.write(`${line}\n`),
  error: (line: string) => void process.stderr.write(`${line}\n`),
};

runPackageCommand(process.argv.slice(2), output).then((code) => {
  process.exitCode = code;
});
