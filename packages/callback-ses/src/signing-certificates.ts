import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import type { Certificate } from 'pkijs';
import {
  allowsDigitalSignature,
  toPathCertificate,
  validateCertificatePath,
  type PathRefusal,
} from './certificate-path';
import { boundedGet, extraRoots, type SnsTransport } from './sns-https';

/** Why a signing certificate was refused. */
export type CertificateRefusal =
  | PathRefusal
  | 'fetch-failed'
  | 'not-a-certificate'
  | 'wrong-subject'
  | 'wrong-key-usage'
  | 'pin-mismatch'
  | 'not-rsa';

const maxCertificateBytes = 65_536;
const maxCached = 16;

function splitPem(text: string): X509Certificate[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.slice(0, 8).map((block) => new X509Certificate(block));
}

/**
 * Fetches and validates SNS signing certificates. With chain validation, the leaf (first PEM block) must be
 * an RSA end-entity certificate for `sns.amazonaws.com` whose key usage allows signatures, and the path from
 * it through the bundle's other certificates to a trusted root (the system roots plus the transport's extra
 * roots) must pass RFC 5280 path validation (pkijs: signatures, validity, CA constraints and keyCertSign,
 * name constraints; path length constraints checked here). Without it (tests, deliberately), the pinned
 * certificate is used and the URL is only validated, never fetched. Validated certificates are cached per
 * URL in this instance (at most 16) while every certificate of the path is current.
 */
export class SigningCertificates {
  private readonly cache = new Map<string, { readonly leaf: X509Certificate; readonly validUntil: Date }>();
  private roots: X509Certificate[] | undefined;
  private readonly pinned: X509Certificate | undefined;

  constructor(
    private readonly settings: {
      readonly validateChain: boolean;
      readonly pinnedPem?: string;
      readonly transport: SnsTransport;
      readonly now: () => Date;
      readonly timeoutMs: number;
    },
  ) {
    this.pinned = settings.pinnedPem ? new X509Certificate(settings.pinnedPem) : undefined;
  }

  async get(url: URL, signal?: AbortSignal): Promise<X509Certificate | CertificateRefusal> {
    if (!this.settings.validateChain) return this.pinned ?? 'pin-mismatch';
    const cached = this.cache.get(url.href);
    if (cached && this.settings.now() <= cached.validUntil) return cached.leaf;
    const answer = await boundedGet(url, this.settings.transport, {
      timeoutMs: this.settings.timeoutMs,
      maxBytes: maxCertificateBytes,
      ...(signal ? { signal } : {}),
    });
    if (!answer.ok || answer.status !== 200) return 'fetch-failed';
    let bundle: X509Certificate[];
    try {
      bundle = splitPem(answer.body.toString('utf8'));
    } catch {
      return 'not-a-certificate';
    }
    const leaf = bundle[0];
    if (!leaf) return 'not-a-certificate';
    const validated = await this.validate(leaf, bundle.slice(1));
    if (typeof validated === 'string') return validated;
    if (this.pinned && !this.pinned.raw.equals(leaf.raw)) return 'pin-mismatch';
    if (this.cache.size >= maxCached) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(url.href, { leaf, validUntil: validated.validUntil });
    return leaf;
  }

  private async validate(
    leaf: X509Certificate,
    intermediates: X509Certificate[],
  ): Promise<CertificateRefusal | { readonly validUntil: Date }> {
    if (leaf.publicKey.asymmetricKeyType !== 'rsa') return 'not-rsa';
    if (leaf.ca || !leaf.checkHost('sns.amazonaws.com')) return 'wrong-subject';
    let leafForPath: Certificate;
    let bundleForPath: Certificate[];
    try {
      leafForPath = toPathCertificate(leaf);
      bundleForPath = intermediates.map(toPathCertificate);
    } catch {
      return 'not-a-certificate';
    }
    if (!allowsDigitalSignature(leafForPath)) return 'wrong-key-usage';
    this.roots ??= [...tls.rootCertificates, ...extraRoots(this.settings.transport)].flatMap((pem) => {
      try {
        return [new X509Certificate(pem)];
      } catch {
        return [];
      }
    });
    // Only the roots named as an issuer in the bundle can anchor its path (converting all of them is slow).
    const candidates = this.roots.filter((root) =>
      [leaf, ...intermediates].some((certificate) => certificate.checkIssued(root)),
    );
    let anchors: Certificate[];
    try {
      anchors = candidates.map(toPathCertificate);
    } catch {
      return 'chain-untrusted';
    }
    return validateCertificatePath(leafForPath, bundleForPath, anchors, this.settings.now());
  }
}
