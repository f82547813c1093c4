import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { boundedGet, extraRoots, type SnsTransport } from './sns-https';

/** Why a signing certificate was refused. */
export type CertificateRefusal =
  | 'fetch-failed'
  | 'not-a-certificate'
  | 'chain-untrusted'
  | 'expired'
  | 'wrong-subject'
  | 'pin-mismatch'
  | 'not-rsa';

const maxCertificateBytes = 65_536;
const maxCached = 16;

function splitPem(text: string): X509Certificate[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.slice(0, 8).map((block) => new X509Certificate(block));
}

function current(certificate: X509Certificate, now: Date): boolean {
  return new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo);
}

/**
 * Fetches and validates SNS signing certificates. With chain validation, the leaf (first PEM block) must be
 * an RSA certificate for `sns.amazonaws.com`, current, and chain through the bundle's CA certificates to a
 * trusted root (the system roots plus the transport's extra roots), each link's signature checked. Without it
 * (tests, deliberately), the pinned certificate is used and the URL is only validated, never fetched.
 * Validated certificates are cached per URL in this instance (at most 16).
 */
export class SigningCertificates {
  private readonly cache = new Map<string, X509Certificate>();
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
    if (cached && current(cached, this.settings.now())) return cached;
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
    const refusal = this.validate(leaf, bundle.slice(1));
    if (refusal) return refusal;
    if (this.pinned && !this.pinned.raw.equals(leaf.raw)) return 'pin-mismatch';
    if (this.cache.size >= maxCached) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(url.href, leaf);
    return leaf;
  }

  private validate(leaf: X509Certificate, intermediates: X509Certificate[]): CertificateRefusal | undefined {
    const now = this.settings.now();
    if (leaf.publicKey.asymmetricKeyType !== 'rsa') return 'not-rsa';
    if (leaf.ca || !leaf.checkHost('sns.amazonaws.com')) return 'wrong-subject';
    if (!current(leaf, now)) return 'expired';
    this.roots ??= [...tls.rootCertificates, ...extraRoots(this.settings.transport)].flatMap((pem) => {
      try {
        return [new X509Certificate(pem)];
      } catch {
        return [];
      }
    });
    let link = leaf;
    for (let depth = 0; depth < 6; depth++) {
      const root = this.roots.find(
        (candidate) => link.checkIssued(candidate) && link.verify(candidate.publicKey),
      );
      if (root) return current(root, now) ? undefined : 'expired';
      const next = intermediates.find(
        (candidate) => candidate.ca && link.checkIssued(candidate) && link.verify(candidate.publicKey),
      );
      if (!next) return 'chain-untrusted';
      if (!current(next, now)) return 'expired';
      link = next;
    }
    return 'chain-untrusted';
  }
}
