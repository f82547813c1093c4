import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { CoreError } from '@corekit/abstractions';
import { certificateThumbprintOf, keyIdOf, signatureAlgorithmOf } from './package-signature';
import type { TrustOptions } from './package-options';

export interface TrustedKey {
  readonly keyId: string;
  readonly key: KeyObject;
  readonly algorithm: string;
}

/** A pinned signing certificate: the certificate itself, or only its thumbprint. */
export interface PinnedCertificate {
  readonly thumbprint: string;
  readonly certificate: X509Certificate | null;
}

/** `Engine:Trust` parsed into key objects and certificates, validated once at build. */
export interface TrustStore {
  readonly requireSignatureVerification: boolean;
  readonly keys: readonly TrustedKey[];
  readonly certificates: readonly PinnedCertificate[];
  readonly authorities: readonly X509Certificate[];
}

const thumbprintPattern = /^[0-9A-Fa-f]{2}(?::?[0-9A-Fa-f]{2}){31}$/;

function derOf(value: string): Buffer | undefined {
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}

function parseKey(value: string): KeyObject {
  const trimmed = value.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  const der = derOf(trimmed);
  if (!der) throw new Error('not base64');
  return createPublicKey({ key: der, format: 'der', type: 'spki' });
}

function parseCertificate(value: string): X509Certificate {
  const trimmed = value.trim();
  if (trimmed.startsWith('-----BEGIN')) return new X509Certificate(trimmed);
  const der = derOf(trimmed);
  if (!der) throw new Error('not base64');
  return new X509Certificate(der);
}

/**
 * Parses `Engine:Trust`. Throws CONFIGURATION_INVALID naming every entry that is not a key or a
 * certificate (`Engine:Trust:TrustedSignaturePublicKeys:1 ...`); public material only, so values may be shown.
 */
export function createTrustStore(options: TrustOptions): TrustStore {
  const problems: string[] = [];
  const keys: TrustedKey[] = [];
  options.TrustedSignaturePublicKeys.forEach((value, index) => {
    try {
      const key = parseKey(value);
      keys.push({ keyId: keyIdOf(key), key, algorithm: signatureAlgorithmOf(key) });
    } catch (error) {
      problems.push(
        `Engine:Trust:TrustedSignaturePublicKeys:${index} must be a PEM public key or base64 DER SubjectPublicKeyInfo of an Ed25519, ECDSA or RSA key (${(error as Error).message})`,
      );
    }
  });
  const certificates: PinnedCertificate[] = [];
  options.TrustedSignatureCertificates.forEach((value, index) => {
    if (thumbprintPattern.test(value.trim())) {
      certificates.push({ thumbprint: value.trim().replace(/:/g, '').toUpperCase(), certificate: null });
      return;
    }
    try {
      const certificate = parseCertificate(value);
      certificates.push({ thumbprint: certificateThumbprintOf(certificate), certificate });
    } catch (error) {
      problems.push(
        `Engine:Trust:TrustedSignatureCertificates:${index} must be a PEM certificate, base64 DER, or a SHA-256 thumbprint of 64 hex digits (${(error as Error).message})`,
      );
    }
  });
  const authorities: X509Certificate[] = [];
  options.TrustedSignatureCertificateAuthorities.forEach((value, index) => {
    try {
      const authority = parseCertificate(value);
      if (!authority.ca)
        throw new Error(
          'the certificate is not a certificate authority (basicConstraints CA:TRUE is missing)',
        );
      authorities.push(authority);
    } catch (error) {
      problems.push(
        `Engine:Trust:TrustedSignatureCertificateAuthorities:${index} must be a PEM or base64 DER CA certificate (${(error as Error).message})`,
      );
    }
  });
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: 'Engine:Trust',
      problems,
    });
  }
  return {
    requireSignatureVerification: options.RequireSignatureVerification,
    keys,
    certificates,
    authorities,
  };
}

/** True when certificate trust is configured, so a certificate-signed package is judged by its chain. */
export function usesCertificateTrust(store: TrustStore): boolean {
  return store.certificates.length > 0 || store.authorities.length > 0;
}

/** The effective trust policy as `/engine/trust-policy` shows it (public material only). */
export function describeTrustStore(store: TrustStore): Record<string, unknown> {
  return {
    requireSignatureVerification: store.requireSignatureVerification,
    signatureFile: 'corekit-signature.json',
    digestAlgorithm: 'sha256',
    certificateThumbprintAlgorithm: 'sha256',
    verificationMode: usesCertificateTrust(store)
      ? 'trusted-certificate-chain'
      : store.keys.length > 0
        ? 'trusted-public-key'
        : 'none',
    trustedSignaturePublicKeys: store.keys.map((key) => ({ keyId: key.keyId, algorithm: key.algorithm })),
    trustedSignatureCertificates: store.certificates.map((pinned) => ({
      certificateThumbprint: pinned.thumbprint,
      subject: pinned.certificate?.subject ?? null,
      validToUtc: pinned.certificate ? utc(pinned.certificate.validTo) : null,
    })),
    trustedSignatureCertificateAuthorities: store.authorities.map((authority) => ({
      certificateThumbprint: certificateThumbprintOf(authority),
      subject: authority.subject,
      validFromUtc: utc(authority.validFrom),
      validToUtc: utc(authority.validTo),
    })),
  };
}

/** X509Certificate dates (`Jan  1 00:00:00 2026 GMT`) as ISO-8601 UTC. */
export function utc(date: string): string {
  return new Date(Date.parse(date)).toISOString();
}
