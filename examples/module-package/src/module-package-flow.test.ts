import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '@corekit/engine-core';
import { startExampleHost } from './create-example-host';

// End to end, as the README shows it: `scripts/stage.mjs` builds the module with tsup, packs, signs and
// verifies it with the corekit-package bin (so the workspace must be built: pnpm turbo run build
// --filter=@corekit/example-operations-status...), then a real web host on a free loopback port discovers it.
const exampleRoot = path.resolve(__dirname, '..');
const workspace = mkdtempSync(path.join(tmpdir(), 'corekit-module-package-'));
const staged = path.join(workspace, 'staged', '@corekit', 'example-operations-status');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

beforeAll(() => {
  copyFileSync(path.join(exampleRoot, 'engine.json'), path.join(workspace, 'engine.json'));
  const result = spawnSync(
    process.execPath,
    ['scripts/stage.mjs', '--out', path.join(workspace, 'staged'), '--keys', path.join(workspace, 'keys')],
    {
      cwd: exampleRoot,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`scripts/stage.mjs failed:\n${result.stdout}\n${result.stderr}`);
}, 60_000);

async function hostOnFreePort() {
  return startExampleHost({
    contentRoot: workspace,
    publicKeyFile: 'keys/example.public.pem',
    port: 0,
    handleSignals: false,
    builderOptions: { logger: createMemoryLogger(), environment: {} },
  });
}

describe('the staged, signed example package', () => {
  it('loads in the example host and answers GET /api/operations/status', async () => {
    const { host, url, routes } = await hostOnFreePort();
    try {
      expect(routes).toEqual(['GET /api/operations/status']);
      const status = await fetch(`${url}/api/operations/status`);
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({
        module: 'operations-status',
        state: 'Started',
        packages: [
          {
            id: '@corekit/example-operations-status',
            version: '1.0.0',
            outcome: 'loaded',
            verification: 'trusted-public-key',
          },
        ],
      });
      const packages = await (await fetch(`${url}/engine/packages`)).json();
      expect(packages).toMatchObject([
        {
          id: '@corekit/example-operations-status',
          outcome: 'loaded',
          moduleId: 'operations-status',
          directory: staged,
        },
      ]);
      const trust = await (await fetch(`${url}/engine/trust-policy`)).json();
      expect(trust).toMatchObject({
        requireSignatureVerification: true,
        verificationMode: 'trusted-public-key',
      });
      const policy = await (await fetch(`${url}/engine/package-policy`)).json();
      expect(policy).toMatchObject({
        allowedPackageIds: ['@corekit/example-*'],
        decisions: [{ outcome: 'loaded' }],
      });
      const manifest = (await (await fetch(`${url}/engine/manifest`)).json()) as { modules: unknown[] };
      expect(manifest.modules).toContainEqual(
        expect.objectContaining({ id: 'operations-status', origin: 'package' }),
      );
      const openApi = (await (await fetch(`${url}/openapi/v1.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(openApi.paths)).toContain('/api/operations/status');
    } finally {
      await host.close();
    }
  });

  it('is rejected, and its route never mounted, once a staged file changes', async () => {
    writeFileSync(
      path.join(staged, 'dist', 'module.js'),
      'export default { id: "operations-status", version: "6.6.6" };\n',
    );
    const { host, url, routes } = await hostOnFreePort();
    try {
      expect(routes).toEqual([]);
      expect((await fetch(`${url}/api/operations/status`)).status).toBe(404);
      const snapshot = (await (await fetch(`${url}/engine/snapshot`)).json()) as { packages: unknown[] };
      expect(snapshot.packages).toMatchObject([
        {
          outcome: 'rejected',
          verification: 'invalid',
          reasons: ['file dist/module.js was changed after signing'],
        },
      ]);
    } finally {
      await host.close();
    }
  });
});
