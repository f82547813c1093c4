import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A data folder of the calling test file's own for `createSampleHost({ dataDirectory })`: the demo's default,
 * `<tmp>/corekit-sample-host`, keeps its File stores across runs (on purpose, for `pnpm demo`), so a test on it
 * would read what an earlier run or another test file left there. Removed after the file's tests.
 */
export function testDataDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-sample-test-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}
