import { timingSafeEqual } from 'node:crypto';
import type { DomainVerificationOptions } from './delivery-options';
import type {
  DomainProofChallenge,
  ProofPublicationPlan,
  VerificationOutcome,
} from './domain-verification-types';
import {
  CollectionError,
  fetchHttpFileProof,
  resolveTxtOverHttps,
  type ProofTransport,
} from './proof-collectors';

/** The prefix of the DNS TXT proof value. */
export const dnsValuePrefix = 'core-domain-verification=';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Where the proof of a challenge must appear (DNS TXT name and value, or HTTP file URL, path and body). */
export function publicationPlanFor(
  challenge: DomainProofChallenge,
  options: DomainVerificationOptions,
): ProofPublicationPlan {
  const filePath = `${options.HttpFilePathPrefix}${challenge.challengeId}`;
  return {
    method: challenge.method,
    dnsTxt:
      challenge.method === 'dns-txt'
        ? {
            name: `${options.DnsTxtRecordLabel}.${challenge.domainName}`,
            value: `${dnsValuePrefix}${challenge.token}`,
          }
        : null,
    httpFile:
      challenge.method === 'http-file'
        ? {
            url: `https://${challenge.domainName}${filePath}`,
            path: filePath,
            body: challenge.token,
            contentType: 'text/plain',
          }
        : null,
    expiresAtUtc: challenge.expiresAtUtc,
  };
}

/**
 * Collects and evaluates the proof of a live challenge: the DNS TXT values through the DoH resolver, or the
 * HTTP file over HTTPS, compared in constant time with the expected value. A DNS answer carrying only other
 * `core-domain-verification=` values is `proof-missing` (`other-verification-value`: an older value before
 * propagation), never a mismatch; a wrong HTTP file body is `proof-mismatch`. Collection errors become
 * `collection-failed` with their reason code.
 */
export async function collectProof(
  challenge: DomainProofChallenge,
  options: DomainVerificationOptions,
  transport: ProofTransport,
  dnsEnabled: boolean,
): Promise<{ outcome: VerificationOutcome; reason: string | null }> {
  const limits = {
    maxBytes: options.MaxResponseBytes,
    timeoutMs: options.CollectionTimeoutSeconds * 1000,
    maxRedirects: options.MaxRedirects,
  };
  try {
    if (challenge.method === 'dns-txt') {
      if (!dnsEnabled) return { outcome: 'method-disabled', reason: 'dns-resolver-not-configured' };
      const plan = publicationPlanFor(challenge, options).dnsTxt!;
      const texts = await resolveTxtOverHttps(
        options.DnsOverHttpsResolverUrl!,
        options.DnsOverHttpsFormat,
        plan.name,
        limits,
        transport,
      );
      const proofs = texts.filter((text) => text.startsWith(dnsValuePrefix));
      if (proofs.length === 0)
        return {
          outcome: 'proof-missing',
          reason: texts.length ? 'no-verification-record' : 'no-txt-record',
        };
      // Only other verification values: an older challenge's value still cached or not yet replaced
      // (DNS propagation), not a refusal. The challenge stays open until it is verified or expires.
      return proofs.some((text) => sameText(text, plan.value))
        ? { outcome: 'verified', reason: null }
        : { outcome: 'proof-missing', reason: 'other-verification-value' };
    }
    if (!options.EnableHttpFileCollection)
      return { outcome: 'method-disabled', reason: 'http-file-disabled' };
    const plan = publicationPlanFor(challenge, options).httpFile!;
    const body = await fetchHttpFileProof(
      challenge.domainName,
      plan.path,
      { ...limits, allowedAddresses: options.HttpFileAllowedInternalAddresses },
      transport,
    );
    if (body === null) return { outcome: 'proof-missing', reason: 'http-file-not-found' };
    return sameText(body.trim(), plan.body)
      ? { outcome: 'verified', reason: null }
      : { outcome: 'proof-mismatch', reason: 'token-mismatch' };
  } catch (error) {
    const reason = error instanceof CollectionError ? error.reason : 'collection-error';
    return { outcome: 'collection-failed', reason };
  }
}
