#!/usr/bin/env node
// Fails a test file that would collide with a test running beside it. `pnpm test` runs packages in parallel,
// so every test owns what it touches: ports from the OS (port 0), its own database schema or table names,
// queue and exchange names with a unique part. This check reads every test file and test helper and names
// each line that binds a fixed port or creates a shared server object under a fixed name. A line that must
// keep a literal (a configuration test that never listens) says why with `// isolation-ok: <reason>`, on
// that line or the line above.
//
// Usage: node tools/ci/check-test-isolation.mjs [folder...]   (default: packages, examples, bench)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What makes a line collide, and what to do instead. */
const rules = [
  {
    pattern: /\.listen\(\s*[1-9]\d*/,
    problem: 'listens on a fixed port',
    fix: 'listen on port 0 and read the port the OS gave',
  },
  {
    pattern: /\blisten\(\s*\{[^}]*\bport:\s*[1-9]\d*/,
    problem: 'listens on a fixed port',
    fix: 'listen on port 0 and read the port the OS gave',
  },
  {
    pattern: /\bPORT:\s*['"`][1-9]\d*['"`]/,
    problem: 'starts a process on a fixed port',
    fix: "pass PORT: '0' (or a port from freePort()) and read the address the process prints",
  },
  {
    pattern: /['"`](?:--port|-p)['"`]\s*,\s*['"`][1-9]\d*['"`]/,
    problem: 'starts a server on a fixed port',
    fix: 'take a port from freePort() (@corekit/testing/network-helpers)',
  },
  {
    pattern:
      /\bCREATE\s+(?:SCHEMA|DATABASE|TABLE)\s+(?:IF\s+NOT\s+EXISTS\s+)?["`]?[A-Za-z_][\w]*["`]?\s*(?:\(|;|$|['"`])/i,
    problem: 'creates a database object under a fixed name',
    fix: 'put a unique part in the name (a random suffix or the test’s own schema)',
  },
  {
    pattern: /\bassert(?:Queue|Exchange)\(\s*['"][^'"]+['"]/,
    problem: 'declares a broker queue or exchange under a fixed name',
    fix: 'put a unique part in the name',
  },
];

const isTestSource = (file) =>
  /\.test\.ts$/.test(file) ||
  /[/\\](test-support|testing-support|test-fixtures)[/\\]/.test(file) ||
  file.includes(`${path.sep}packages${path.sep}testing${path.sep}src${path.sep}`);

function* sources(directory) {
  for (const entry of readdirSync(directory)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) yield* sources(full);
    else if (/\.(ts|mjs|cjs)$/.test(entry) && isTestSource(full)) yield full;
  }
}

const folders = process.argv.slice(2).length
  ? process.argv.slice(2).map((folder) => path.resolve(folder))
  : ['packages', 'examples', 'bench'].map((folder) => path.join(root, folder));
const findings = [];
let files = 0;
for (const folder of folders) {
  for (const file of sources(folder)) {
    files += 1;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (line.includes('isolation-ok:') || lines[index - 1]?.trim().startsWith('// isolation-ok:')) return;
      for (const rule of rules) {
        if (rule.pattern.test(line)) {
          findings.push(
            `${path.relative(root, file)}:${index + 1}: ${rule.problem}; ${rule.fix}\n    ${line.trim()}`,
          );
        }
      }
    });
  }
}

if (findings.length > 0) {
  console.error(
    `== test isolation: ${findings.length} line(s) would collide with a test running beside them`,
  );
  for (const finding of findings) console.error(finding);
  console.error('(see packages/testing/README.md, "A test that runs beside any other")');
  process.exit(1);
}
console.log(`== test isolation: ${files} test files checked, no fixed ports or shared names`);
