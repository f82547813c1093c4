import { generateKeyPairSync, createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { computePackageDigest, signatureFileName } from './package-digest';
import { readPackageSignature, signPackageDirectory, type PackageSignature } from './package-signature';
import { verifyPackageSignature } from './signature-verification';
import { createTrustStore } from './trust-store';
import { trustOptionsSchema } from './package-options';
import { temporaryDirectory, writeModulePackage } from './testing-support/package-fixtures';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const publicPem = (key: ReturnType<typeof generateKeyPairSync>['publicKey']) =>
  key.export({ type: 'spki', format: 'pem' }).toString();

function storeTrusting(...publicKeys: string[]) {
  return createTrustStore(trustOptionsSchema.parse({ TrustedSignaturePublicKeys: publicKeys }));
}

async function verify(directory: string, store = storeTrusting()) {
  return verifyPackageSignature(
    await readPackageSignature(directory),
    await computePackageDigest(directory),
    store,
    Date.now(),
  );
}

describe('canonical package digest', () => {
  const temporary = temporaryDirectory();
  afterAll(() => temporary.remove());

  it('lists every file but the root signature file, sorted by UTF-8 bytes, as "<sha256> <path>" lines', async () => {
    const directory = path.join(temporary.path, 'digest');
    mkdirSync(path.join(directory, 'a', 'nested'), { recursive: true });
    writeFileSync(path.join(directory, 'b.txt'), 'bee');
    writeFileSync(path.join(directory, 'Z.md'), 'zed');
    writeFileSync(path.join(directory, 'a', 'nested', 'x.js'), 'ex');
    writeFileSync(path.join(directory, 'a', signatureFileName), 'only the root signature file is left out');
    writeFileSync(path.join(directory, signatureFileName), '{}');
    mkdirSync(path.join(directory, 'empty'));
    const digest = await computePackageDigest(directory);
    const expected =
      'corekit-package-manifest-v1\n' +
      `${sha('zed')} Z.md\n` +
      `${sha('only the root signature file is left out')} a/corekit-signature.json\n` +
      `${sha('ex')} a/nested/x.js\n` +
      `${sha('bee')} b.txt\n`;
    expect(digest.manifest).toBe(expected);
    expect(digest.digest).toBe(sha(expected));
  });

  it('refuses a package holding a symbolic link', async () => {
    const directory = path.join(temporary.path, 'linked');
    mkdirSync(directory);
    writeFileSync(path.join(directory, 'real.js'), 'x');
    symlinkSync(path.join(directory, 'real.js'), path.join(directory, 'link.js'));
    await expect(computePackageDigest(directory)).rejects.toMatchObject({ code: 'PACKAGE_FILE_UNSUPPORTED' });
  });

  it('refuses a package with more files than the bound', async () => {
    const directory = path.join(temporary.path, 'many');
    mkdirSync(directory);
    for (let index = 0; index < 4; index++) writeFileSync(path.join(directory, `${index}.js`), '');
    await expect(computePackageDigest(directory, { maxFiles: 3 })).rejects.toMatchObject({
      code: 'PACKAGE_TOO_LARGE',
    });
  });
});

describe('detached package signatures', () => {
  const temporary = temporaryDirectory();
  const markers = path.join(temporary.path, 'markers');
  let counter = 0;
  afterAll(() => temporary.remove());

  function freshPackage() {
    return writeModulePackage(path.join(temporary.path, `p${++counter}`), {
      name: 'signed-module',
      markerDirectory: markers,
      files: { 'README.md': '# readme\n' },
    });
  }

  it.each(['ed25519', 'ec', 'rsa'] as const)(
    'a package signed with a trusted %s key verifies as trusted-public-key',
    async (type) => {
      const keys =
        type === 'ec'
          ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
          : type === 'rsa'
            ? generateKeyPairSync('rsa', { modulusLength: 2048 })
            : generateKeyPairSync('ed25519');
      const directory = freshPackage();
      await signPackageDirectory(directory, { privateKey: keys.privateKey });
      const verdict = await verify(directory, storeTrusting(publicPem(keys.publicKey)));
      expect(verdict).toMatchObject({ verification: 'trusted-public-key', reasons: [] });
      expect(verdict.signingKeyId).toMatch(/^sha256:[0-9a-f]{64}$/);
    },
  );

  it('accepts the trusted key as base64 DER SubjectPublicKeyInfo too', async () => {
    const keys = generateKeyPairSync('ed25519');
    const directory = freshPackage();
    await signPackageDirectory(directory, { privateKey: keys.privateKey });
    const base64 = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect((await verify(directory, storeTrusting(base64))).verification).toBe('trusted-public-key');
  });

  it.each([
    [
      'changed',
      (directory: string) => writeFileSync(path.join(directory, 'dist', 'module.js'), '// replaced\n'),
      'file dist/module.js was changed after signing',
    ],
    [
      'added',
      (directory: string) => writeFileSync(path.join(directory, 'dist', 'extra.js'), 'x'),
      'file dist/extra.js was added after signing',
    ],
    [
      'removed',
      (directory: string) => rmSync(path.join(directory, 'README.md')),
      'file README.md was removed after signing',
    ],
  ])(
    'a file %s after signing makes the signature invalid, naming the file',
    async (_what, tamper, reason) => {
      const keys = generateKeyPairSync('ed25519');
      const directory = freshPackage();
      await signPackageDirectory(directory, { privateKey: keys.privateKey });
      tamper(directory);
      const verdict = await verify(directory, storeTrusting(publicPem(keys.publicKey)));
      expect(verdict.verification).toBe('invalid');
      expect(verdict.reasons).toEqual([reason]);
    },
  );

  it('a signature file whose list was edited to match tampered files does not verify', async () => {
    const keys = generateKeyPairSync('ed25519');
    const directory = freshPackage();
    await signPackageDirectory(directory, { privateKey: keys.privateKey });
    writeFileSync(path.join(directory, 'dist', 'module.js'), '// replaced\n');
    const file = path.join(directory, signatureFileName);
    const signature = JSON.parse(readFileSync(file, 'utf8')) as PackageSignature;
    const actual = await computePackageDigest(directory);
    writeFileSync(file, JSON.stringify({ ...signature, files: actual.files, digest: actual.digest }));
    const verdict = await verify(directory, storeTrusting(publicPem(keys.publicKey)));
    expect(verdict.verification).toBe('invalid');
    expect(verdict.reasons[0]).toMatch(/does not verify over the signed file list/);
  });

  it('a package signed with another key is an untrusted signer', async () => {
    const trusted = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519');
    const directory = freshPackage();
    await signPackageDirectory(directory, { privateKey: other.privateKey });
    const verdict = await verify(directory, storeTrusting(publicPem(trusted.publicKey)));
    expect(verdict.verification).toBe('untrusted-signer');
    expect(verdict.reasons[0]).toMatch(/not listed in Engine:Trust:TrustedSignaturePublicKeys/);
  });

  it('naming the trusted key in a signature made with another key does not make it verify', async () => {
    const trusted = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519');
    const directory = freshPackage();
    await signPackageDirectory(directory, { privateKey: other.privateKey });
    const file = path.join(directory, signatureFileName);
    const signature = JSON.parse(readFileSync(file, 'utf8')) as PackageSignature;
    writeFileSync(
      file,
      JSON.stringify({
        ...signature,
        publicKey: trusted.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      }),
    );
    expect((await verify(directory, storeTrusting(publicPem(trusted.publicKey)))).verification).toBe(
      'invalid',
    );
  });

  it('a package without a signature file is unsigned', async () => {
    expect((await verify(freshPackage())).verification).toBe('unsigned');
  });

  it('a malformed signature file is refused with SIGNATURE_FILE_INVALID', async () => {
    const directory = freshPackage();
    writeFileSync(path.join(directory, signatureFileName), '{"format":"something-else"}');
    await expect(readPackageSignature(directory)).rejects.toMatchObject({ code: 'SIGNATURE_FILE_INVALID' });
  });

  it('a trusted key that is not a key fails configuration, naming the full key path', () => {
    expect(() => storeTrusting('bm90IGEga2V5')).toThrow(
      /Engine:Trust:TrustedSignaturePublicKeys:0 must be a PEM public key/,
    );
  });
});
