import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { verifyCertificateChain, type CertificateSummary } from './certificate-chain';
import { describeDifferences, digestOf, type PackageDigest } from './package-digest';
import { certificateThumbprintOf, keyIdOf, verifyManifest, type PackageSignature } from './package-signature';
import { usesCertificateTrust, type TrustStore } from './trust-store';

/**
 * How a package's signature was judged:
 * - `trusted-certificate-chain`: intact, signed with a certificate accepted by the certificate settings;
 * - `trusted-public-key`: intact, signed with a key listed in TrustedSignaturePublicKeys;
 * - `untrusted-signer`: intact (files match a valid signature) but the signer is not trusted;
 * - `invalid`: the signature does not verify, or files were changed, added or removed after signing;
 * - `unsigned`: no signature file.
 */
export type SignatureVerification =
  'trusted-certificate-chain' | 'trusted-public-key' | 'untrusted-signer' | 'invalid' | 'unsigned';

export interface SignatureVerdict {
  readonly verification: SignatureVerification;
  readonly reasons: readonly string[];
  readonly signatureAlgorithm: string | null;
  /** `sha256:<hex>` of the signing key's DER SubjectPublicKeyInfo. */
  readonly signingKeyId: string | null;
  /** SHA-256 of the signing certificate's DER, uppercase hex; null without a certificate. */
  readonly certificateThumbprint: string | null;
  readonly certificateSubject: string | null;
  readonly certificateChain: readonly CertificateSummary[];
}

const none = {
  signatureAlgorithm: null,
  signingKeyId: null,
  certificateThumbprint: null,
  certificateSubject: null,
  certificateChain: [],
};

/**
 * Judges a package: `signature` is its signature file (undefined when absent), `actual` the digest of the
 * files on disk, `now` the engine clock. Integrity is checked first (the signature must verify over the file
 * list it carries, and that list must be exactly the files on disk), then trust.
 */
export function verifyPackageSignature(
  signature: PackageSignature | undefined,
  actual: PackageDigest,
  store: TrustStore,
  now: number,
): SignatureVerdict {
  if (!signature)
    return { verification: 'unsigned', reasons: ['the package has no corekit-signature.json'], ...none };
  let publicKey: KeyObject;
  let certificate: X509Certificate | undefined;
  let intermediates: X509Certificate[] = [];
  try {
    publicKey = createPublicKey({
      key: Buffer.from(signature.publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    if (signature.certificate) certificate = new X509Certificate(signature.certificate);
    intermediates = (signature.certificateChain ?? []).map((pem) => new X509Certificate(pem));
  } catch (error) {
    return {
      verification: 'invalid',
      reasons: [`the signature file holds an unreadable key or certificate (${(error as Error).message})`],
      ...none,
    };
  }
  const identity = {
    signatureAlgorithm: signature.signatureAlgorithm,
    signingKeyId: keyIdOf(publicKey),
    certificateThumbprint: certificate ? certificateThumbprintOf(certificate) : null,
    certificateSubject: certificate ? certificate.subject.replace(/\n/g, ', ') : null,
    certificateChain: [] as CertificateSummary[],
  };
  if (certificate && !certificate.publicKey.equals(publicKey)) {
    return {
      verification: 'invalid',
      reasons: ['the signing certificate does not hold the key the signature names'],
      ...identity,
    };
  }
  const signed = digestOf(signature.files);
  if (!verifyManifest(signed.manifest, signature.signatureAlgorithm, signature.signature, publicKey)) {
    return {
      verification: 'invalid',
      reasons: [
        `the ${signature.signatureAlgorithm} signature does not verify over the signed file list with the key it names (forged or corrupted signature)`,
      ],
      ...identity,
    };
  }
  if (signed.manifest !== actual.manifest) {
    const differences = describeDifferences(signed.files, actual.files);
    return {
      verification: 'invalid',
      reasons: differences.length > 0 ? differences : ['the files on disk do not match the signed file list'],
      ...identity,
    };
  }
  if (certificate && usesCertificateTrust(store)) {
    const chain = verifyCertificateChain(certificate, intermediates, store, now);
    return {
      verification: chain.trusted ? 'trusted-certificate-chain' : 'untrusted-signer',
      reasons: chain.reasons,
      ...identity,
      certificateChain: chain.chain,
    };
  }
  if (store.keys.some((trusted) => trusted.key.equals(publicKey))) {
    return { verification: 'trusted-public-key', reasons: [], ...identity };
  }
  const reasons = [
    `the package is signed with key ${identity.signingKeyId}, which is not listed in Engine:Trust:TrustedSignaturePublicKeys`,
  ];
  if (certificate) {
    reasons.push(
      'it carries a signing certificate, but neither Engine:Trust:TrustedSignatureCertificates nor TrustedSignatureCertificateAuthorities is set',
    );
  }
  return { verification: 'untrusted-signer', reasons, ...identity };
}
