import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeStoreChangeFeed } from '@corekit/testing/store-change-feed-suite';
import { FileStoreProvider } from './file-store';
import { MemoryStoreProvider } from './memory-store';

// Every writer of an in-process store is in this process: the "other instance" of the suite is the same one.
describeStoreChangeFeed('MemoryStoreProvider', {
  path: 'in-process',
  pair: async () => {
    const provider = new MemoryStoreProvider();
    return [provider, provider] as const;
  },
  close: async () => undefined,
});

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

describeStoreChangeFeed('FileStoreProvider', {
  path: 'in-process',
  pair: async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-feed-'));
    folders.push(directory);
    const provider = new FileStoreProvider({ directory });
    return [provider, provider] as const;
  },
  close: async (providers) => {
    await Promise.all(providers.map((provider) => provider.close()));
  },
});
