// The local registry harness on a small workspace of its own (four packages, nothing to build): what
// publishWorkspacePackages publishes, with which versions and ranges, and that the registry asks no other one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  publishSet,
  publishWorkspacePackages,
  startLocalRegistry,
  type LocalRegistry,
} from './local-registry';

jest.setTimeout(180_000);

let workspace: string;
let registry: LocalRegistry;

beforeAll(async () => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'corekit-registry-workspace-'));
  writeWorkspace(workspace);
  registry = await startLocalRegistry();
});

afterAll(async () => {
  await registry?.close();
  rmSync(workspace, { recursive: true, force: true });
});

function writeWorkspace(root: string): void {
  const write = (file: string, content: unknown) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(
      path.join(root, file),
      typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  };
  write('package.json', { name: 'registry-fixture', private: true, packageManager: 'pnpm@10.34.8' });
  write('pnpm-workspace.yaml', "packages:\n  - 'packages/*'\n");
  write('.changeset/config.json', { changelog: false, commit: false, access: 'public', baseBranch: 'main' });
  const manifest = (name: string, extra: object = {}) => ({
    name,
    version: '0.1.0',
    type: 'module',
    main: './dist/index.js',
    files: ['dist'],
    ...extra,
  });
  write('packages/base/package.json', manifest('@corekit/fixture-base'));
  write(
    'packages/leaf/package.json',
    manifest('@corekit/fixture-leaf', {
      dependencies: { '@corekit/fixture-base': 'workspace:^' },
      peerDependencies: { '@corekit/fixture-base': 'workspace:>=0.1.0 <1.0.0' },
    }),
  );
  write('packages/other/package.json', manifest('@corekit/fixture-other'));
  write('packages/private/package.json', manifest('@corekit/fixture-private', { private: true }));
  for (const folder of ['base', 'leaf', 'other'])
    write(`packages/${folder}/dist/index.js`, `export const name = '${folder}';\n`);
}

const published = async (name: string, version: string) => {
  const response = await fetch(`${registry.url}${name.replace('/', '%2f')}`);
  const document = (await response.json()) as { versions: Record<string, Record<string, any>> };
  return document.versions[version]!;
};

describe('publishWorkspacePackages on a workspace of its own', () => {
  it('publishes the named package and what it needs, at the version asked, with workspace ranges replaced, and nothing else', async () => {
    const result = await publishWorkspacePackages(registry, ['@corekit/fixture-leaf'], {
      root: workspace,
      versioning: { version: '0.3.0' },
      build: false,
    });
    expect(result.versions).toEqual({ '@corekit/fixture-base': '0.3.0', '@corekit/fixture-leaf': '0.3.0' });
    const leaf = await published('@corekit/fixture-leaf', '0.3.0');
    expect(leaf.dependencies).toEqual({ '@corekit/fixture-base': '^0.3.0' });
    expect(leaf.peerDependencies).toEqual({ '@corekit/fixture-base': '>=0.1.0 <1.0.0' });
    expect(leaf.dist.tarball).toContain(registry.url);
    expect(await registry.versions('@corekit/fixture-other')).toEqual([]);
  });

  it('refuses a package the workspace does not have, and a private one', () => {
    expect(() => publishSet(['@corekit/no-such-package'], workspace)).toThrow(
      'is not a package of the workspace',
    );
    expect(() => publishSet(['@corekit/fixture-private'], workspace)).toThrow('is private');
  });
});

describe('the local registry', () => {
  it('asks no other registry: a package it does not hold answers 404', async () => {
    const response = await fetch(`${registry.url}zod`);
    expect(response.status).toBe(404);
  });

  it('answers only under its own path', async () => {
    const response = await fetch(new URL('/%40corekit%2ffixture-base', registry.url));
    expect(response.status).toBe(404);
    expect((await fetch(`${registry.url}@corekit%2ffixture-base`)).status).toBe(200);
  });

  it('writes consumer and publisher .npmrc lines for its scope', () => {
    expect(registry.npmrc()).toBe(`@corekit:registry=${registry.url}\n`);
    expect(registry.npmrc({ publish: true })).toContain(`${registry.url.replace('http:', '')}:_authToken=`);
  });
});
