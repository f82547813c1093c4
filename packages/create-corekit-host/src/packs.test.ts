import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import { createWebHost } from '@corekit/web-host';
import { loadCatalog } from './catalog';

// A generated host calls each chosen pack's registration with the builder alone: every pack offered must start
// on its embedded defaults, or the generated host would fail on its first `npm start`.
const catalog = loadCatalog();
const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'create-corekit-host-packs-'));
afterAll(() => rmSync(contentRoot, { recursive: true, force: true }));

it.each(catalog.packs.map((pack) => [pack.id, pack] as const))(
  'the %s pack registers and starts on its embedded defaults',
  async (_id, pack) => {
    const builder = createEngineBuilder({ contentRoot, environment: {}, logger: captureLogger() });
    for (const id of [...pack.needs, pack.id]) {
      const choice = catalog.packs.find((candidate) => candidate.id === id)!;
      const module = (await import(`@corekit/${choice.folder}`)) as Record<string, (b: unknown) => unknown>;
      module[choice.register](builder);
    }
    const host = createWebHost(builder, { port: 0, handleSignals: false });
    const { url } = await host.listen();
    try {
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
    } finally {
      await host.close();
    }
  },
);
