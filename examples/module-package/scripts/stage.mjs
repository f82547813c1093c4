// Builds the example module, packs it into a staging directory, signs it and verifies the signature: the
// out-of-tree package flow end to end, with the corekit-package command-line tool.
//
//   node scripts/stage.mjs [--out staged] [--keys .keys] [--key <private.pem> --certificate <cert.pem> [--chain <intermediates.pem>]]
//
// Without --key, an Ed25519 key pair is generated once into <keys>/example.{private,public}.pem (git-ignored).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'staged' },
    keys: { type: 'string', default: '.keys' },
    key: { type: 'string' },
    certificate: { type: 'string' },
    chain: { type: 'string' },
  },
});
const out = path.resolve(root, values.out);
const keys = path.resolve(root, values.keys);
const packageId = '@corekit/example-operations-status';
const staged = path.join(out, ...packageId.split('/'));

/**
 * corekit-package runs from its package's `bin` entry with this node, not through node_modules/.bin: pnpm cannot
 * link that shim on a fresh clone, where the tool's dist/ only exists after the build that follows the install.
 */
function corekitPackageCli() {
  const manifestPath = createRequire(import.meta.url).resolve('@corekit/package-tools/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return path.join(path.dirname(manifestPath), manifest.bin['corekit-package']);
}

function run(tool, args) {
  console.log(`$ ${tool} ${args.join(' ')}`);
  const [command, commandArgs] =
    tool === 'corekit-package'
      ? [process.execPath, [corekitPackageCli(), ...args]]
      : [path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${tool}.cmd` : tool), args];
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32' && tool !== 'corekit-package',
  });
  if (result.status !== 0) {
    console.error(
      `${tool} failed (exit ${result.status ?? result.signal}); is the workspace built? pnpm turbo run build --filter=${packageId}...`,
    );
    process.exit(1);
  }
}

run('tsup', [
  'src/module.ts',
  '--format',
  'esm',
  '--target',
  'node20',
  '--out-dir',
  'dist',
  '--clean',
  '--silent',
]);
let privateKey = values.key && path.resolve(values.key);
const publicKey = path.join(keys, 'example.public.pem');
if (!privateKey) {
  privateKey = path.join(keys, 'example.private.pem');
  if (!existsSync(privateKey)) run('corekit-package', ['keygen', '--out', keys, '--name', 'example']);
}
run('corekit-package', ['pack', '.', '--out', out]);
const signArgs = ['sign', staged, '--key', privateKey];
if (values.certificate) signArgs.push('--certificate', path.resolve(values.certificate));
if (values.chain) signArgs.push('--chain', path.resolve(values.chain));
run('corekit-package', signArgs);
if (!values.certificate) run('corekit-package', ['verify', staged, '--public-key', publicKey]);

const trust = values.certificate
  ? 'Engine__Trust__TrustedSignatureCertificateAuthorities__0="$(cat <the authority that issued the certificate>.pem)"'
  : `Engine__Trust__TrustedSignaturePublicKeys__0="$(cat ${publicKey})"`;
console.log(`
Staged and signed: ${staged}
Any host whose engine is configured like this discovers and loads it at startup:
  Engine__Discovery__PackageDirectories__0=${out}
  ${trust}
Try it with the example host: pnpm host`);
