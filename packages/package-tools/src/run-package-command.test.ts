import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runPackageCommand } from './run-package-command';

const temporary = mkdtempSync(path.join(tmpdir(), 'corekit-package-tools-'));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));
let counter = 0;

async function run(...argv: string[]) {
  const out: string[] = [];
  const error: string[] = [];
  const code = await runPackageCommand(argv, {
    out: (line) => out.push(line),
    error: (line) => error.push(line),
  });
  return { code, out: out.join('\n'), error: error.join('\n') };
}

/** A built module package as a developer has it: sources, node_modules and build output side by side. */
function sourcePackage(files: string[] | null = ['dist']): string {
  const directory = path.join(temporary, `source-${++counter}`);
  mkdirSync(path.join(directory, 'dist'), { recursive: true });
  mkdirSync(path.join(directory, 'src'));
  mkdirSync(path.join(directory, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(
    path.join(directory, 'package.json'),
    JSON.stringify({
      name: '@acme/status',
      version: '2.1.0',
      type: 'module',
      corekit: { module: './dist/module.js' },
      ...(files ? { files } : {}),
    }),
  );
  writeFileSync(path.join(directory, 'README.md'), '# status\n');
  writeFileSync(path.join(directory, 'src', 'module.ts'), 'export default {};\n');
  writeFileSync(
    path.join(directory, 'dist', 'module.js'),
    'export default { id: "status", version: "2.1.0" };\n',
  );
  writeFileSync(path.join(directory, 'node_modules', 'left-pad', 'index.js'), '');
  return directory;
}

async function keys(name = `k${++counter}`) {
  const directory = path.join(temporary, 'keys');
  expect((await run('keygen', '--out', directory, '--name', name)).code).toBe(0);
  return {
    privateKey: path.join(directory, `${name}.private.pem`),
    publicKey: path.join(directory, `${name}.public.pem`),
  };
}

async function packed(files: string[] | null = ['dist']) {
  const out = path.join(temporary, `staged-${++counter}`);
  const result = await run('pack', sourcePackage(files), '--out', out);
  expect(result.code).toBe(0);
  return path.join(out, '@acme', 'status');
}

describe('corekit-package keygen', () => {
  it('writes an Ed25519 key pair, the private key readable by its owner only, and never overwrites one', async () => {
    const { privateKey, publicKey } = await keys('owner');
    expect(readFileSync(privateKey, 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect(readFileSync(publicKey, 'utf8')).toContain('BEGIN PUBLIC KEY');
    expect(statSync(privateKey).mode & 0o777).toBe(0o600);
    const again = await run('keygen', '--out', path.dirname(privateKey), '--name', 'owner');
    expect(again.code).toBe(1);
    expect(again.error).toMatch(/EEXIST/);
  });
});

describe('corekit-package pack', () => {
  it('stages package.json, README and the "files" entries only', async () => {
    const directory = await packed();
    const listing = execFileSync('find', ['.', '-type', 'f'], { cwd: directory, encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
    expect(listing).toEqual(['./README.md', './dist/module.js', './package.json']);
  });

  it('without "files", stages everything except node_modules', async () => {
    const directory = await packed(null);
    expect(existsSync(path.join(directory, 'src', 'module.ts'))).toBe(true);
    expect(existsSync(path.join(directory, 'node_modules'))).toBe(false);
  });

  it('fails when the module entry would not be packed', async () => {
    const result = await run('pack', sourcePackage(['src']), '--out', path.join(temporary, 'never'));
    expect(result.code).toBe(1);
    expect(result.error).toMatch(/The module entry \.\/dist\/module\.js would not be packed/);
  });
});

describe('corekit-package sign and verify with a key', () => {
  it('signs a staged package and verifies it with the public key', async () => {
    const { privateKey, publicKey } = await keys();
    const directory = await packed();
    const signed = await run('sign', directory, '--key', privateKey);
    expect(signed.code).toBe(0);
    expect(signed.out).toMatch(
      /^signed @acme\/status@2\.1\.0: 3 files, digest sha256:[0-9a-f]{64}, ed25519$/,
    );
    const verified = await run('verify', directory, '--public-key', publicKey);
    expect(verified).toMatchObject({ code: 0 });
    expect(verified.out).toMatch(/@acme\/status@2\.1\.0: trusted-public-key/);
    expect(readFileSync(path.join(directory, 'corekit-signature.json'), 'utf8')).not.toMatch(/PRIVATE KEY/);
  });

  it('fails verification with another key, and after a file changed', async () => {
    const signer = await keys();
    const stranger = await keys();
    const directory = await packed();
    await run('sign', directory, '--key', signer.privateKey);
    const wrongKey = await run('verify', directory, '--public-key', stranger.publicKey);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/untrusted-signer/);
    writeFileSync(path.join(directory, 'dist', 'module.js'), '// changed');
    const tampered = await run('verify', directory, '--public-key', signer.publicKey, '--json');
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.out)).toMatchObject({
      trusted: false,
      verification: 'invalid',
      reasons: ['file dist/module.js was changed after signing'],
    });
  });
});

describe('corekit-package sign and verify with a key and certificate', () => {
  it('signs with a certificate and verifies the chain to the authority, reporting the SHA-256 thumbprint', async () => {
    const pki = path.join(temporary, 'pki');
    mkdirSync(pki);
    const openssl = (...args: string[]) =>
      execFileSync('openssl', args, { cwd: pki, stdio: ['ignore', 'ignore', 'pipe'] });
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Tools Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    );
    openssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'signer.key',
      '-out',
      'signer.csr',
      '-subj',
      '/CN=Tools Signer',
    );
    writeFileSync(
      path.join(pki, 'signer.ext'),
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=codeSigning\n',
    );
    openssl(
      'x509',
      '-req',
      '-in',
      'signer.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      '7',
      '-days',
      '10',
      '-extfile',
      'signer.ext',
      '-out',
      'signer.pem',
    );
    const directory = await packed();

    const signed = await run(
      'sign',
      directory,
      '--key',
      path.join(pki, 'signer.key'),
      '--certificate',
      path.join(pki, 'signer.pem'),
    );
    expect(signed.code).toBe(0);
    expect(signed.out).toMatch(/certificate CN=Tools Signer, thumbprint \(SHA-256 of DER\) [0-9A-F]{64}/);
    const verified = await run('verify', directory, '--authority', path.join(pki, 'ca.pem'), '--json');
    expect(verified.code).toBe(0);
    const verdict = JSON.parse(verified.out);
    expect(verdict).toMatchObject({
      trusted: true,
      verification: 'trusted-certificate-chain',
      certificateSubject: 'CN=Tools Signer',
    });
    const expected = execFileSync(
      'openssl',
      ['x509', '-in', 'signer.pem', '-noout', '-fingerprint', '-sha256'],
      { cwd: pki, encoding: 'utf8' },
    );
    expect(verdict.certificateThumbprint).toBe(expected.trim().split('=')[1].replace(/:/g, ''));

    const mismatched = await run(
      'sign',
      directory,
      '--key',
      (await keys()).privateKey,
      '--certificate',
      path.join(pki, 'signer.pem'),
    );
    expect(mismatched.code).toBe(1);
    expect(mismatched.error).toMatch(/does not hold the public key of the private key/);
  });
});

describe('usage', () => {
  it.each([
    [[]],
    [['frobnicate']],
    [['sign', 'a-directory']],
    [['verify', 'one', 'two']],
    [['pack', '--nope']],
  ])('answers %j with the usage and exit code 2', async (argv) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.out + result.error).toContain('corekit-package pack <package-directory>');
  });
});
