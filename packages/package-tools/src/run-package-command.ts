import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { errorCode } from '@corekit/abstractions';
import {
  computePackageDigest,
  createTrustStore,
  readModulePackageManifest,
  readPackageSignature,
  signPackageDirectory,
  trustOptionsSchema,
  verifyPackageSignature,
} from '@corekit/engine-core';
import { packModulePackage } from './pack-module-package';

/** Where the command writes; tests pass collectors, the bin passes the process streams. */
export interface CommandOutput {
  out(line: string): void;
  error(line: string): void;
}

export const usage = `corekit-package: pack, sign and verify Core module packages

  corekit-package pack <package-directory> --out <staging-directory>
      Copies package.json, README, LICENSE and the "files" of a built package into <staging-directory>/<name>.
  corekit-package sign <package-directory> --key <private-key.pem> [--certificate <certificate.pem>] [--chain <intermediates.pem>]
      Writes corekit-signature.json: a detached signature over the canonical digest of every file.
  corekit-package verify <package-directory> [--public-key <key.pem>]... [--trusted-certificate <certificate.pem>]...
                         [--authority <ca.pem>]... [--json]
      Checks integrity and trust as the engine does (Engine:Trust); exits 1 unless the signature is trusted.
  corekit-package keygen --out <directory> [--name <name>]
      Writes an Ed25519 key pair: <name>.private.pem (mode 600, keep it secret) and <name>.public.pem.

Exit codes: 0 success, 1 verification or packing failed, 2 wrong usage.`;

class UsageError extends Error {}

const pemBlocks = (text: string) => text.match(/-----BEGIN [^-]+-----[\s\S]+?-----END [^-]+-----/g) ?? [];
const readText = (file: string) => readFile(file, 'utf8');

/** Runs one `corekit-package` command; resolves to the process exit code. Never prints key material. */
export async function runPackageCommand(argv: readonly string[], output: CommandOutput): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'pack':
        return await pack(rest, output);
      case 'sign':
        return await sign(rest, output);
      case 'verify':
        return await verify(rest, output);
      case 'keygen':
        return await keygen(rest, output);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        output.out(usage);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      errorCode(error, '') === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      errorCode(error, '') === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
    ) {
      output.error(`corekit-package: ${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    const code = errorCode(error, '');
    output.error(`corekit-package ${command}: ${(error as Error).message}${code ? ` (${code})` : ''}`);
    return 1;
  }
}

function directoryArgument(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`${what} takes exactly one package directory`);
  return path.resolve(positionals[0]);
}

async function pack(args: string[], output: CommandOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string' } },
  });
  const source = directoryArgument(positionals, 'pack');
  if (!values.out) throw new UsageError('pack needs --out <staging-directory>');
  const result = await packModulePackage(source, path.resolve(values.out));
  output.out(`packed ${result.id}@${result.version} (${result.files.length} files) into ${result.directory}`);
  return 0;
}

async function sign(args: string[], output: CommandOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      key: { type: 'string' },
      certificate: { type: 'string' },
      chain: { type: 'string', multiple: true },
    },
  });
  const directory = directoryArgument(positionals, 'sign');
  if (!values.key) throw new UsageError('sign needs --key <private-key.pem>');
  const manifest = await readModulePackageManifest(directory);
  const privateKey = createPrivateKey(await readFile(path.resolve(values.key)));
  const certificate = values.certificate ? await readText(path.resolve(values.certificate)) : undefined;
  const chain: string[] = [];
  for (const file of values.chain ?? []) chain.push(...pemBlocks(await readText(path.resolve(file))));
  const { signature, digest } = await signPackageDirectory(directory, {
    privateKey,
    certificate,
    certificateChain: chain,
  });
  output.out(
    `signed ${manifest.id}@${manifest.version}: ${digest.files.length} files, digest sha256:${digest.digest}, ${signature.signatureAlgorithm}`,
  );
  if (certificate)
    output.out(
      `certificate ${new X509Certificate(certificate).subject.replace(/\n/g, ', ')}, thumbprint (SHA-256 of DER) ${new X509Certificate(certificate).fingerprint256.replace(/:/g, '')}`,
    );
  return 0;
}

async function verify(args: string[], output: CommandOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'public-key': { type: 'string', multiple: true },
      'trusted-certificate': { type: 'string', multiple: true },
      authority: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    },
  });
  const directory = directoryArgument(positionals, 'verify');
  const read = async (files: string[] | undefined) => {
    const blocks: string[] = [];
    for (const file of files ?? []) blocks.push(...pemBlocks(await readText(path.resolve(file))));
    return blocks;
  };
  const store = createTrustStore(
    trustOptionsSchema.parse({
      TrustedSignaturePublicKeys: await read(values['public-key']),
      TrustedSignatureCertificates: await read(values['trusted-certificate']),
      TrustedSignatureCertificateAuthorities: await read(values.authority),
    }),
  );
  const manifest = await readModulePackageManifest(directory);
  const verdict = verifyPackageSignature(
    await readPackageSignature(directory),
    await computePackageDigest(directory),
    store,
    Date.now(),
  );
  const trusted =
    verdict.verification === 'trusted-public-key' || verdict.verification === 'trusted-certificate-chain';
  if (values.json) {
    output.out(JSON.stringify({ id: manifest.id, version: manifest.version, trusted, ...verdict }, null, 2));
  } else {
    output.out(`${manifest.id}@${manifest.version}: ${verdict.verification}`);
    if (verdict.signingKeyId) output.out(`  signing key ${verdict.signingKeyId}`);
    if (verdict.certificateThumbprint)
      output.out(
        `  certificate ${verdict.certificateSubject}, thumbprint (SHA-256 of DER) ${verdict.certificateThumbprint}`,
      );
    for (const reason of verdict.reasons) output.out(`  - ${reason}`);
  }
  return trusted ? 0 : 1;
}

async function keygen(args: string[], output: CommandOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string' }, name: { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError('keygen takes no positional arguments');
  if (!values.out) throw new UsageError('keygen needs --out <directory>');
  const name = values.name ?? 'package-signing';
  const directory = path.resolve(values.out);
  await mkdir(directory, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privateFile = path.join(directory, `${name}.private.pem`);
  const publicFile = path.join(directory, `${name}.public.pem`);
  await writeFile(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), {
    mode: 0o600,
    flag: 'wx',
  });
  await writeFile(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
  output.out(
    `wrote ${privateFile} (keep it secret) and ${publicFile} (list it in Engine:Trust:TrustedSignaturePublicKeys)`,
  );
  return 0;
}
