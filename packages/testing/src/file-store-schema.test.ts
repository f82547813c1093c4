import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileStoreProvider } from '@corekit/engine-core';
import { describeStoreSchemaConformance } from './store-schema-suite';

// The file provider of @corekit/engine-core (which cannot depend on this package) on the schema suite: one
// folder per test, removed after the file.
const root = mkdtempSync(path.join(os.tmpdir(), 'corekit-file-schema-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;

describeStoreSchemaConformance('FileStoreProvider', {
  provider: () => new FileStoreProvider({ directory: path.join(root, `case-${(folders += 1)}`) }),
  release: (provider) => provider.close(),
  markLaterLayout: async (provider) => {
    await provider.close();
    const file = provider.fileOf('people');
    const document = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...document, format: 'corekit-keyed-store/2' }));
    return new FileStoreProvider({ directory: provider.directory });
  },
});
