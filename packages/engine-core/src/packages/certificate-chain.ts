import type { X509Certificate } from 'node:crypto';
import { certificateThumbprintOf } from './package-signature';
import type { TrustStore } from './trust-store';
import { utc } from './trust-store';

/** Extended key usage "code signing" (RFC 5280, id-kp-codeSigning). */
export const codeSigningUsage = '1.3.6.1.5.5.7.3.3';

/** Longest chain followed from the signing certificate to an authority. */
const maxChainLength = 8;

/** One certificate of a verified (or attempted) chain, as records show it. */
export interface CertificateSummary {
  readonly subject: string;
  readonly issuer: string;
  /** SHA-256 of the DER encoding, uppercase hex. */
  readonly certificateThumbprint: string;
  readonly validFromUtc: string;
  readonly validToUtc: string;
}

export interface ChainVerdict {
  readonly trusted: boolean;
  readonly reasons: readonly string[];
  /** From the signing certificate up to the trusted authority (or as far as the chain could be followed). */
  readonly chain: readonly CertificateSummary[];
}

export function summarize(certificate: X509Certificate): CertificateSummary {
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    certificateThumbprint: certificateThumbprintOf(certificate),
    validFromUtc: utc(certificate.validFrom),
    validToUtc: utc(certificate.validTo),
  };
}

function validityProblem(certificate: X509Certificate, now: number, role: string): string | undefined {
  const from = Date.parse(certificate.validFrom);
  const to = Date.parse(certificate.validTo);
  if (now < from)
    return `${role} ${certificate.subject.replace(/\n/g, ', ')} is not valid before ${utc(certificate.validFrom)}`;
  if (now > to)
    return `${role} ${certificate.subject.replace(/\n/g, ', ')} expired at ${utc(certificate.validTo)}`;
  return undefined;
}

function issuedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return issuer.ca && child.checkIssued(issuer) && child.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * Decides whether a signing certificate is trusted at `now` (the engine clock): it must be within its
 * validity dates and allowed for code signing; when `TrustedSignatureCertificates` is set it must be one of
 * them; when `TrustedSignatureCertificateAuthorities` is set it must chain to one of them through the
 * intermediates the package carries, every link verified by signature and within its own validity dates.
 */
export function verifyCertificateChain(
  leaf: X509Certificate,
  intermediates: readonly X509Certificate[],
  store: TrustStore,
  now: number,
): ChainVerdict {
  const reasons: string[] = [];
  const chain: CertificateSummary[] = [summarize(leaf)];
  const leafProblem = validityProblem(leaf, now, 'the signing certificate');
  if (leafProblem) reasons.push(leafProblem);
  const usages = leaf.keyUsage ?? [];
  if (!usages.includes(codeSigningUsage)) {
    reasons.push(
      `the signing certificate is not allowed for code signing: its extended key usage ${usages.length ? `(${usages.join(', ')}) ` : ''}does not include ${codeSigningUsage}`,
    );
  }
  const thumbprint = certificateThumbprintOf(leaf);
  if (
    store.certificates.length > 0 &&
    !store.certificates.some((pinned) => pinned.thumbprint === thumbprint)
  ) {
    reasons.push(
      `the signing certificate ${thumbprint} is not listed in Engine:Trust:TrustedSignatureCertificates`,
    );
  }
  if (store.authorities.length > 0) {
    let current = leaf;
    let anchored = false;
    const used = new Set<X509Certificate>();
    for (let depth = 0; depth < maxChainLength && !anchored; depth++) {
      const authority = store.authorities.find((candidate) => issuedBy(current, candidate));
      if (authority) {
        chain.push(summarize(authority));
        const problem = validityProblem(authority, now, 'the trusted authority');
        if (problem) reasons.push(problem);
        anchored = true;
        break;
      }
      const next = intermediates.find((candidate) => !used.has(candidate) && issuedBy(current, candidate));
      if (!next) break;
      used.add(next);
      chain.push(summarize(next));
      const problem = validityProblem(next, now, 'the intermediate authority');
      if (problem) reasons.push(problem);
      current = next;
    }
    if (!anchored) {
      reasons.push(
        `the signing certificate does not chain to an authority in Engine:Trust:TrustedSignatureCertificateAuthorities (last issuer: ${current.issuer.replace(/\n/g, ', ')})`,
      );
    }
  }
  return { trusted: reasons.length === 0, reasons, chain };
}
