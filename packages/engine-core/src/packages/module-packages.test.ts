import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { snapshotDocumentSchema, type ModuleDefinition, type PackageRecord } from '@corekit/abstractions';
import { testBuilder } from '../testing-support/engine-fixtures';
import { signPackageDirectory } from './package-signature';
import {
  temporaryDirectory,
  wasImported,
  writeModulePackage,
  type ModulePackageSpec,
} from './testing-support/package-fixtures';

const temporary = temporaryDirectory();
afterAll(() => temporary.remove());
const markers = path.join(temporary.path, 'markers');
mkdirSync(markers, { recursive: true });

const trustedKeys = generateKeyPairSync('ed25519');
const trustedPublicKey = trustedKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
let scenario = 0;

/** A fresh directory for one test's packages. */
function stagingDirectory(name = 'staging'): string {
  const directory = path.join(temporary.path, `scenario-${++scenario}`, name);
  mkdirSync(directory, { recursive: true });
  return directory;
}

async function stage(
  parent: string,
  spec: Omit<ModulePackageSpec, 'markerDirectory'>,
  privateKey = trustedKeys.privateKey,
) {
  const full = { ...spec, name: `${spec.name}-${scenario}`, markerDirectory: markers };
  const directory = writeModulePackage(parent, full);
  if (privateKey) await signPackageDirectory(directory, { privateKey });
  return { directory, spec: full, id: full.name };
}

function engineWith(engineConfiguration: Record<string, unknown>, modules: ModuleDefinition[] = []) {
  const fixture = testBuilder({
    configuration: {
      Engine: { Trust: { TrustedSignaturePublicKeys: [trustedPublicKey] }, ...engineConfiguration },
    },
  });
  for (const module of modules) fixture.builder.addModule(module);
  return { ...fixture, engine: fixture.builder.build() };
}

function recordOf(records: readonly PackageRecord[], id: string): PackageRecord {
  const found = records.find((record) => record.id === id);
  if (!found) throw new Error(`no record for ${id} in ${JSON.stringify(records.map((record) => record.id))}`);
  return found;
}

describe('discovery in Engine:Discovery:PackageDirectories', () => {
  it('loads the packages of every listed directory, scoped ones included, before modules initialize', async () => {
    const first = stagingDirectory('first');
    const second = path.join(path.dirname(first), 'second');
    mkdirSync(second);
    mkdirSync(path.join(first, '.cache'));
    const alpha = await stage(first, { name: 'alpha' });
    const beta = await stage(first, { name: '@acme/beta' });
    const gamma = await stage(second, { name: 'gamma' });
    const missing = path.join(path.dirname(first), 'missing');
    const { engine, logger } = engineWith({ Discovery: { PackageDirectories: [first, second, missing] } }, [
      { id: 'host', version: '1.0.0' },
    ]);

    await engine.start();

    expect(engine.state).toBe('Started');
    // Directories in the order listed, then names by their bytes: '@acme' sorts before 'alpha'.
    expect(engine.packages().map((record) => [record.id, record.outcome])).toEqual([
      [beta.id, 'loaded'],
      [alpha.id, 'loaded'],
      [gamma.id, 'loaded'],
    ]);
    expect([alpha, beta, gamma].every((item) => wasImported(item.spec))).toBe(true);
    const manifest = engine.manifest().modules.map((module) => [module.id, module.origin]);
    expect(manifest).toEqual([
      ['host', 'code'],
      [`beta-${scenario}`, 'package'],
      [alpha.id, 'package'],
      [gamma.id, 'package'],
    ]);
    const timeline = engine.runtimeStory().timeline;
    const packageLoads = timeline.filter((entry) => entry.kind === 'package');
    expect(packageLoads.map((entry) => [entry.subjectId, entry.transition])).toEqual([
      [beta.id, 'loaded'],
      [alpha.id, 'loaded'],
      [gamma.id, 'loaded'],
    ]);
    const firstInitialize = timeline.find(
      (entry) => entry.kind === 'module' && entry.transition === 'initialized',
    )!;
    expect(packageLoads.every((entry) => entry.sequence < firstInitialize.sequence)).toBe(true);
    expect(engine.runtimeStory().modules.find((module) => module.moduleId === gamma.id)?.state).toBe(
      'started',
    );
    expect(engine.packagePolicy().packageDirectories).toEqual([
      { configured: first, path: first, exists: true, candidates: 2 },
      { configured: second, path: second, exists: true, candidates: 1 },
      { configured: missing, path: missing, exists: false, candidates: 0 },
    ]);
    expect(
      logger.records.some((record) => record.level === 'warn' && String(record.message).includes(missing)),
    ).toBe(true);
    // Discovery records carry the engine's own id 2030, never the spec's runtime-starting 2000.
    const discovery = logger.records.filter((record) => record.category === 'engine.packages');
    expect(discovery.length).toBeGreaterThan(0);
    expect(new Set(discovery.map((record) => record.eventId))).toEqual(new Set([2030]));
    expect(engine.diagnostics().eventIds).toContainEqual(
      expect.objectContaining({
        ranges: [[2030, 2039]],
        names: expect.objectContaining({ 2030: 'package-discovery', 2031: 'job-run-failed' }),
      }),
    );
    await engine.stop();
  });

  it('resolves relative directories against the content root', async () => {
    const staging = stagingDirectory('relative');
    const item = await stage(staging, { name: 'relative' });
    const fixture = testBuilder({
      contentRoot: path.dirname(staging),
      configuration: {
        Engine: {
          Discovery: { PackageDirectories: ['relative'] },
          Trust: { TrustedSignaturePublicKeys: [trustedPublicKey] },
        },
      },
    });
    const engine = fixture.builder.build();
    await engine.start();
    expect(recordOf(engine.packages(), item.id)).toMatchObject({
      outcome: 'loaded',
      directory: path.join(staging, item.id),
    });
    await engine.stop();
  });

  it('registers package module operations once started, owned by the module and its package', async () => {
    const staging = stagingDirectory();
    const item = await stage(staging, { name: 'routed' });
    const { engine } = engineWith({ Discovery: { PackageDirectories: [staging] } });
    expect(engine.operations.find(`${item.id}.status`)).toBeUndefined();
    await engine.start();
    expect(engine.operations.find(`${item.id}.status`)).toMatchObject({
      method: 'GET',
      path: `/api/${item.id}/status`,
      owner: `${item.id} (package ${item.id})`,
    });
    const response = await engine.operations.invoke(`${item.id}.status`);
    expect(response.body).toEqual({ module: item.id, started: true });
    expect(recordOf(engine.packages(), item.id).routes).toEqual([
      { method: 'GET', path: `/api/${item.id}/status` },
    ]);
    await engine.stop();
  });

  it('discovers once: a restart keeps the loaded package modules and records no second load', async () => {
    const staging = stagingDirectory();
    const item = await stage(staging, { name: 'once' });
    const { engine } = engineWith({ Discovery: { PackageDirectories: [staging] } });
    await engine.start();
    await engine.stop();
    await engine.restart();
    expect(engine.state).toBe('Started');
    expect(engine.runtimeStory().timeline.filter((entry) => entry.kind === 'package')).toHaveLength(1);
    expect(engine.manifest().modules.filter((module) => module.id === item.id)).toHaveLength(1);
    expect(engine.runtimeStory().modules.find((module) => module.moduleId === item.id)?.state).toBe(
      'started',
    );
    await engine.stop();
  });

  it('lets the first directory win when two directories hold the same package id', async () => {
    const first = stagingDirectory('first');
    const second = path.join(path.dirname(first), 'second');
    const winner = await stage(first, { name: 'twice', version: '1.0.0' });
    const loser = writeModulePackage(second, {
      name: winner.id,
      version: '2.0.0',
      markerDirectory: path.join(markers, 'loser'),
    });
    await signPackageDirectory(loser, { privateKey: trustedKeys.privateKey });
    const { engine } = engineWith({ Discovery: { PackageDirectories: [first, second] } });
    await engine.start();
    expect(engine.packages().map((record) => [record.version, record.outcome])).toEqual([
      ['1.0.0', 'loaded'],
      ['2.0.0', 'denied'],
    ]);
    expect(engine.packages()[1].reasons[0]).toMatch(/already discovered/);
    await engine.stop();
  });
});

describe('Engine:PackagePolicy', () => {
  it('loads allowed packages and denies the others, with reasons, without importing them', async () => {
    const staging = stagingDirectory();
    const allowed = await stage(staging, { name: 'allowed-one', version: '1.4.0' });
    const denied = await stage(staging, { name: 'denied-one' });
    const old = await stage(staging, { name: 'allowed-old', version: '0.9.0' });
    const stranger = await stage(staging, { name: 'stranger' });
    const { engine } = engineWith({
      Discovery: { PackageDirectories: [staging] },
      PackagePolicy: {
        AllowedPackageIds: ['allowed-*', denied.id],
        DeniedPackageIds: ['denied-*'],
        AllowedVersionRanges: [{ PackageId: 'allowed-*', Range: '^1.2.0' }],
      },
    });
    await engine.start();
    const records = engine.packages();
    expect(recordOf(records, allowed.id)).toMatchObject({
      outcome: 'loaded',
      verification: 'trusted-public-key',
    });
    expect(recordOf(records, denied.id)).toMatchObject({ outcome: 'denied', verification: 'not-evaluated' });
    expect(recordOf(records, denied.id).reasons).toEqual([
      `the package id ${denied.id} matches "denied-*" in Engine:PackagePolicy:DeniedPackageIds`,
    ]);
    expect(recordOf(records, old.id).reasons).toEqual([
      'version 0.9.0 does not satisfy "^1.2.0" (Engine:PackagePolicy:AllowedVersionRanges:0)',
    ]);
    expect(recordOf(records, stranger.id).reasons).toEqual([
      `the package id ${stranger.id} is not listed in Engine:PackagePolicy:AllowedPackageIds`,
    ]);
    expect(wasImported(allowed.spec)).toBe(true);
    expect([denied, old, stranger].map((item) => wasImported(item.spec))).toEqual([false, false, false]);
    const policy = engine.packagePolicy();
    expect(policy).toMatchObject({
      allowedPackageIds: ['allowed-*', denied.id],
      deniedPackageIds: ['denied-*'],
      allowedVersionRanges: [{ packageId: 'allowed-*', range: '^1.2.0' }],
      allowUnsignedPackages: false,
    });
    expect(
      (policy.decisions as Array<{ id: string; outcome: string }>).map((decision) => [
        decision.id,
        decision.outcome,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [allowed.id, 'loaded'],
        [denied.id, 'denied'],
        [old.id, 'denied'],
        [stranger.id, 'denied'],
      ]),
    );
    const storyDenials = engine
      .runtimeStory()
      .timeline.filter((entry) => entry.kind === 'package' && entry.transition === 'denied');
    expect(storyDenials.map((entry) => entry.subjectId).sort()).toEqual(
      [denied.id, old.id, stranger.id].sort(),
    );
    await engine.stop();
  });

  it('refuses an invalid version range at build, naming the full key path', () => {
    expect(() =>
      engineWith({ PackagePolicy: { AllowedVersionRanges: [{ PackageId: 'x', Range: '>=banana' }] } }),
    ).toThrow(/Engine:PackagePolicy:AllowedVersionRanges:0:Range must be a version range/);
  });

  it('refuses AllowUnsignedPackages while signature verification is required', () => {
    expect(() => engineWith({ PackagePolicy: { AllowUnsignedPackages: true } })).toThrow(
      /Engine:PackagePolicy:AllowUnsignedPackages is true but Engine:Trust:RequireSignatureVerification is true/,
    );
  });
});

describe('Engine:Trust with trusted public keys', () => {
  it.each([
    [
      'changed',
      (directory: string) =>
        writeFileSync(
          path.join(directory, 'dist', 'module.js'),
          'export default { id: "evil", version: "6.6.6" };',
        ),
      'changed',
      'dist/module.js',
    ],
    [
      'added',
      (directory: string) => writeFileSync(path.join(directory, 'dist', 'payload.js'), '// extra'),
      'added',
      'dist/payload.js',
    ],
    ['removed', (directory: string) => rmSync(path.join(directory, 'NOTICE')), 'removed', 'NOTICE'],
  ])(
    'rejects a signed package with a file %s after signing and never imports it',
    async (_case, tamper, verb, file) => {
      const staging = stagingDirectory();
      const item = await stage(staging, { name: 'tampered', files: { NOTICE: 'notice\n' } });
      tamper(item.directory);
      const { engine } = engineWith({ Discovery: { PackageDirectories: [staging] } });
      await engine.start();
      expect(recordOf(engine.packages(), item.id)).toMatchObject({
        outcome: 'rejected',
        verification: 'invalid',
        reasons: [`file ${file} was ${verb} after signing`],
        moduleId: null,
      });
      expect(wasImported(item.spec)).toBe(false);
      expect(engine.state).toBe('Started');
      const entry = engine.runtimeStory().timeline.find((candidate) => candidate.kind === 'package')!;
      expect(entry).toMatchObject({ subjectId: item.id, transition: 'rejected' });
      expect(entry.message).toContain(`file ${file} was ${verb} after signing`);
      await engine.stop();
    },
  );

  it('rejects a package signed with a key that is not trusted and never imports it', async () => {
    const staging = stagingDirectory();
    const item = await stage(staging, { name: 'wrong-key' }, generateKeyPairSync('ed25519').privateKey);
    const { engine } = engineWith({ Discovery: { PackageDirectories: [staging] } });
    await engine.start();
    const record = recordOf(engine.packages(), item.id);
    expect(record).toMatchObject({ outcome: 'rejected', verification: 'untrusted-signer' });
    expect(record.reasons.join(' ')).toMatch(/not listed in Engine:Trust:TrustedSignaturePublicKeys/);
    expect(wasImported(item.spec)).toBe(false);
    await engine.stop();
  });

  it('rejects an unsigned package while verification is required', async () => {
    const staging = stagingDirectory();
    const item = await stage(staging, { name: 'unsigned' }, null as never);
    const { engine } = engineWith({ Discovery: { PackageDirectories: [staging] } });
    await engine.start();
    expect(recordOf(engine.packages(), item.id)).toMatchObject({
      outcome: 'rejected',
      verification: 'unsigned',
      signed: false,
    });
    expect(wasImported(item.spec)).toBe(false);
    await engine.stop();
  });

  it('without required verification: denies unsigned packages by default, loads them when allowed, still rejects tampered ones', async () => {
    const staging = stagingDirectory();
    const unsigned = await stage(staging, { name: 'unsigned' }, null as never);
    const untrusted = await stage(staging, { name: 'untrusted' }, generateKeyPairSync('ed25519').privateKey);
    const tampered = await stage(staging, { name: 'tampered' });
    writeFileSync(path.join(tampered.directory, 'dist', 'module.js'), '// changed');
    const strict = engineWith({
      Discovery: { PackageDirectories: [staging] },
      Trust: { RequireSignatureVerification: false },
    }).engine;
    await strict.start();
    expect(recordOf(strict.packages(), unsigned.id)).toMatchObject({ outcome: 'denied' });
    expect(recordOf(strict.packages(), unsigned.id).reasons).toEqual([
      'the package is unsigned and Engine:PackagePolicy:AllowUnsignedPackages is false',
    ]);
    expect(wasImported(unsigned.spec)).toBe(false);
    expect(recordOf(strict.packages(), untrusted.id)).toMatchObject({
      outcome: 'loaded',
      verification: 'untrusted-signer',
    });
    expect(recordOf(strict.packages(), tampered.id)).toMatchObject({
      outcome: 'rejected',
      verification: 'invalid',
    });
    expect(wasImported(tampered.spec)).toBe(false);
    await strict.stop();

    const lenient = engineWith({
      Discovery: { PackageDirectories: [staging] },
      Trust: { RequireSignatureVerification: false },
      PackagePolicy: { AllowUnsignedPackages: true },
    }).engine;
    await lenient.start();
    expect(recordOf(lenient.packages(), unsigned.id)).toMatchObject({
      outcome: 'loaded',
      verification: 'unsigned',
    });
    expect(wasImported(unsigned.spec)).toBe(true);
    await lenient.stop();
  });
});

describe('packages that pass every check but cannot be used', () => {
  it('records failed for a bad manifest, an import that throws, a bad export and a taken module id; the engine still starts', async () => {
    const staging = stagingDirectory();
    const noEntry = path.join(staging, 'no-entry');
    mkdirSync(noEntry);
    writeFileSync(path.join(noEntry, 'package.json'), JSON.stringify({ name: 'no-entry', version: '1.0.0' }));
    const throwing = await stage(staging, {
      name: 'throwing',
      moduleBody: 'throw new Error("module file exploded");\n',
    });
    const noExport = await stage(staging, { name: 'no-export', moduleBody: 'export const nothing = 1;\n' });
    const taken = await stage(staging, { name: 'taken', moduleId: 'host' });
    const { engine } = engineWith({ Discovery: { PackageDirectories: [staging] } }, [
      { id: 'host', version: '1.0.0' },
    ]);
    await engine.start();
    expect(engine.state).toBe('Started');
    const records = engine.packages();
    expect(recordOf(records, 'no-entry')).toMatchObject({ outcome: 'failed' });
    expect(recordOf(records, 'no-entry').reasons[0]).toMatch(
      /"corekit.module" must name the module entry file/,
    );
    expect(recordOf(records, throwing.id).reasons[0]).toMatch(
      /importing \.\/dist\/module\.js failed: module file exploded/,
    );
    expect(recordOf(records, noExport.id).reasons[0]).toMatch(/exports no module definition/);
    expect(recordOf(records, taken.id)).toMatchObject({
      outcome: 'failed',
      reasons: ['module id host is already registered by another module'],
    });
    expect(engine.manifest().modules.map((module) => module.id)).toEqual(['host']);
    await engine.stop();
  });
});

describe('surfaces and snapshot', () => {
  it('show each outcome in /engine/packages, /engine/package-policy, /engine/trust-policy and the snapshot', async () => {
    const staging = stagingDirectory();
    const loaded = await stage(staging, { name: 'shown-loaded' });
    const denied = await stage(staging, { name: 'shown-denied' });
    const rejected = await stage(
      staging,
      { name: 'shown-rejected' },
      generateKeyPairSync('ed25519').privateKey,
    );
    const { engine } = engineWith({
      Discovery: { PackageDirectories: [staging] },
      PackagePolicy: { DeniedPackageIds: [denied.id] },
    });
    await engine.start();
    const snapshot = snapshotDocumentSchema.parse(engine.snapshot());
    const outcomes = Object.fromEntries(snapshot.packages.map((record) => [record.id, record.outcome]));
    expect(outcomes).toEqual({ [loaded.id]: 'loaded', [denied.id]: 'denied', [rejected.id]: 'rejected' });
    expect(snapshot.packagePolicy).toEqual(engine.packagePolicy());
    expect(snapshot.trustPolicy).toEqual(engine.trustPolicy());
    const trust = engine.trustPolicy();
    expect(trust).toMatchObject({
      requireSignatureVerification: true,
      verificationMode: 'trusted-public-key',
      trustedSignaturePublicKeys: [{ keyId: expect.stringMatching(/^sha256:/), algorithm: 'ed25519' }],
    });
    const verifications = Object.fromEntries(
      (trust.verifications as Array<{ id: string; verification: string }>).map((item) => [
        item.id,
        item.verification,
      ]),
    );
    expect(verifications).toEqual({
      [loaded.id]: 'trusted-public-key',
      [denied.id]: 'not-evaluated',
      [rejected.id]: 'untrusted-signer',
    });
    const record = recordOf(snapshot.packages as PackageRecord[], loaded.id);
    expect(record).toMatchObject({
      signed: true,
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      fileCount: 2,
      moduleEntry: './dist/module.js',
    });
    expect(JSON.parse(JSON.stringify(engine.runtimeStory().packages))).toEqual(
      JSON.parse(JSON.stringify(engine.packages())),
    );
    await engine.stop();
  });
});
