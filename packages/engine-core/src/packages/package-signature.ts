import { createPublicKey, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CoreError } from '@corekit/abstractions';
import {
  computePackageDigest,
  digestOf,
  signatureFileName,
  sha256Hex,
  type PackageDigest,
} from './package-digest';

/** First field of every signature file. */
export const signatureFormat = 'corekit-package-signature-v1';

/** Signature algorithms, each tied to one key type so a signature cannot be reinterpreted under another. */
export type SignatureAlgorithm = 'ed25519' | 'ecdsa-sha256' | 'rsa-sha256';

/** The detached signature file (`corekit-signature.json`) as written by `corekit-package sign`. */
export const packageSignatureSchema = z.object({
  format: z.literal(signatureFormat),
  digestAlgorithm: z.literal('sha256'),
  /** SHA-256 of the canonical manifest text rebuilt from `files`. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  /** The signed file list; with the header it rebuilds the manifest text exactly. */
  files: z.array(z.object({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  signatureAlgorithm: z.enum(['ed25519', 'ecdsa-sha256', 'rsa-sha256']),
  /** Base64 signature over the UTF-8 bytes of the manifest text. */
  signature: z.string().min(1),
  /** Base64 DER SubjectPublicKeyInfo of the signing key (the certificate's key when a certificate is present). */
  publicKey: z.string().min(1),
  /** PEM signing certificate, when signed with a certificate. */
  certificate: z.string().optional(),
  /** PEM intermediate certificates from the signing certificate towards a trusted authority. */
  certificateChain: z.array(z.string()).optional(),
});
export type PackageSignature = z.infer<typeof packageSignatureSchema>;

/** The algorithm a key signs with; refuses key types this format does not support. */
export function signatureAlgorithmOf(key: KeyObject): SignatureAlgorithm {
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return 'ed25519';
    case 'ec':
      return 'ecdsa-sha256';
    case 'rsa':
      return 'rsa-sha256';
    default:
      throw new CoreError(
        'SIGNATURE_KEY_UNSUPPORTED',
        `Keys of type ${key.asymmetricKeyType ?? 'unknown'} cannot sign module packages; use Ed25519, ECDSA (P-256/P-384/P-521) or RSA`,
      );
  }
}

/** `sha256:<hex>` of the DER SubjectPublicKeyInfo: how records and documents name a key. */
export function keyIdOf(key: KeyObject): string {
  return `sha256:${sha256Hex(key.export({ type: 'spki', format: 'der' }))}`;
}

/** SHA-256 of the certificate's DER encoding, uppercase hex without separators. */
export function certificateThumbprintOf(certificate: X509Certificate): string {
  return sha256Hex(certificate.raw).toUpperCase();
}

export function signManifest(
  manifest: string,
  privateKey: KeyObject,
): { algorithm: SignatureAlgorithm; signature: string } {
  const algorithm = signatureAlgorithmOf(privateKey);
  const signature = sign(
    algorithm === 'ed25519' ? null : 'sha256',
    Buffer.from(manifest, 'utf8'),
    privateKey,
  );
  return { algorithm, signature: signature.toString('base64') };
}

export function verifyManifest(
  manifest: string,
  algorithm: SignatureAlgorithm,
  signature: string,
  publicKey: KeyObject,
): boolean {
  if (signatureAlgorithmOf(publicKey) !== algorithm) return false;
  try {
    return verify(
      algorithm === 'ed25519' ? null : 'sha256',
      Buffer.from(manifest, 'utf8'),
      publicKey,
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}

/** What `signPackageDirectory` needs: a private key, and optionally the certificate for it and intermediates. */
export interface SignPackageOptions {
  readonly privateKey: KeyObject;
  /** PEM signing certificate; its public key must be the private key's. */
  readonly certificate?: string;
  /** PEM intermediates from the signing certificate towards the trusted authority. */
  readonly certificateChain?: readonly string[];
  readonly maxFiles?: number;
}

/**
 * Signs a package directory in place: digests every file, signs the manifest text, and writes
 * `corekit-signature.json` (temporary file, then rename). Returns the signature and the digest.
 */
export async function signPackageDirectory(
  directory: string,
  options: SignPackageOptions,
): Promise<{ signature: PackageSignature; digest: PackageDigest }> {
  const digest = await computePackageDigest(directory, { maxFiles: options.maxFiles });
  const publicKey = createPublicKey(options.privateKey);
  if (options.certificate) {
    const certificate = new X509Certificate(options.certificate);
    if (!certificate.publicKey.equals(publicKey)) {
      throw new CoreError(
        'SIGNATURE_CERTIFICATE_MISMATCH',
        'The certificate does not hold the public key of the private key given to sign with',
      );
    }
  }
  const { algorithm, signature } = signManifest(digest.manifest, options.privateKey);
  const document: PackageSignature = {
    format: signatureFormat,
    digestAlgorithm: 'sha256',
    digest: digest.digest,
    files: digest.files.map((file) => ({ path: file.path, sha256: file.sha256 })),
    signatureAlgorithm: algorithm,
    signature,
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    ...(options.certificate ? { certificate: new X509Certificate(options.certificate).toString() } : {}),
    ...(options.certificateChain && options.certificateChain.length > 0
      ? { certificateChain: options.certificateChain.map((pem) => new X509Certificate(pem).toString()) }
      : {}),
  };
  const target = path.join(directory, signatureFileName);
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(document, null, 2)}\n`, { flush: true });
  await rename(temporary, target);
  return { signature: document, digest };
}

/** Reads and validates the signature file; undefined when the package has none. */
export async function readPackageSignature(directory: string): Promise<PackageSignature | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(directory, signatureFileName), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CoreError('SIGNATURE_FILE_INVALID', `${signatureFileName} is not valid JSON`);
  }
  const result = packageSignatureSchema.safeParse(parsed);
  if (!result.success) {
    const fields = result.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
    throw new CoreError(
      'SIGNATURE_FILE_INVALID',
      `${signatureFileName} is not a ${signatureFormat} document (fields at fault: ${fields})`,
    );
  }
  const rebuilt = digestOf(result.data.files);
  if (rebuilt.digest !== result.data.digest) {
    throw new CoreError(
      'SIGNATURE_FILE_INVALID',
      `${signatureFileName} is inconsistent: its digest is not the digest of its file list`,
    );
  }
  return result.data;
}
