import { defineExtensionKey } from '@corekit/abstractions';

/** How a domain proves ownership. */
export type ProofMethod = 'dns-txt' | 'http-file';

/** A proof challenge: a random token that must appear where the publication plan says, before expiry. */
export interface DomainProofChallenge {
  readonly challengeId: string;
  readonly tenantId: string;
  /** Lower case, no trailing dot. */
  readonly domainName: string;
  readonly method: ProofMethod;
  /** 32 random bytes, base64url. The proof value; returned to the caller that issued it, never logged. */
  readonly token: string;
  readonly issuedAtUtc: string;
  readonly expiresAtUtc: string;
  /** `issued` until verified, refused for a wrong proof, or past expiry. */
  readonly status: 'issued' | 'verified' | 'refused' | 'expired';
  readonly attemptCount: number;
  readonly lastOutcome: VerificationOutcome | null;
  readonly lastReason: string | null;
  readonly lastCheckedAtUtc: string | null;
}

/** Where the proof must be published. */
export interface ProofPublicationPlan {
  readonly method: ProofMethod;
  /** DNS TXT: the record name (`<label>.<domain>`) and value (`core-domain-verification=<token>`). */
  readonly dnsTxt: { readonly name: string; readonly value: string } | null;
  /** HTTP file: the URL fetched over HTTPS, its path, and the exact body (the token). */
  readonly httpFile: {
    readonly url: string;
    readonly path: string;
    readonly body: string;
    readonly contentType: 'text/plain';
  } | null;
  readonly expiresAtUtc: string;
}

/**
 * The result of one verification:
 * - `verified`: the proof matched (the domain record moves to verified);
 * - `proof-missing`: nothing published yet (no TXT record, 404); the challenge stays issued;
 * - `proof-mismatch`: something else is published (a wrong token); the challenge is refused and the domain
 *   record moves to failed (issue a new challenge to try again);
 * - `challenge-expired`: past expiry (the domain record moves to expired);
 * - `collection-failed`: the proof could not be read (redirect to another host, oversized body, timeout,
 *   TLS or resolver error, unexpected status); the challenge stays issued;
 * - `method-disabled`: the method is not enabled (DNS TXT without a resolver).
 */
export type VerificationOutcome =
  | 'verified'
  | 'proof-missing'
  | 'proof-mismatch'
  | 'challenge-expired'
  | 'collection-failed'
  | 'method-disabled';

export interface VerificationResult {
  readonly outcome: VerificationOutcome;
  /** A stable reason code (`redirect-to-other-host`, `body-too-large`, `timeout`, `http-status-500`...). */
  readonly reason: string | null;
  readonly method: ProofMethod;
  readonly domainStatus: string;
  readonly challengeStatus: DomainProofChallenge['status'];
  readonly checkedAtUtc: string;
}

/** One polling pass. */
export interface PollingPassResult {
  readonly checked: number;
  readonly outcomes: Readonly<Record<string, number>>;
}

/**
 * Domain-ownership verification under `domainVerificationKey`: challenge issuance, publication planning,
 * the HTTP proof files the web adapter serves, on-demand verification and the runner. Domains must be
 * declared first (`TenantGovernance.declareDomain`). Refusals: 404 DOMAIN_NOT_FOUND, 409
 * PROOF_METHOD_DISABLED, 404 CHALLENGE_NOT_FOUND.
 */
export interface TenantDomainVerification {
  issueChallenge(request: {
    readonly tenantId: string;
    readonly domainName: string;
    readonly method: ProofMethod;
  }): Promise<{ readonly challenge: DomainProofChallenge; readonly plan: ProofPublicationPlan }>;
  publicationPlan(tenantId: string, domainName: string): Promise<ProofPublicationPlan>;
  /** The proof file for a request path, only for a live http-file challenge; undefined otherwise. */
  httpProofFile(
    requestPath: string,
  ): Promise<{ readonly body: string; readonly contentType: 'text/plain' } | undefined>;
  /** The path prefix the web adapter mounts (`HttpFilePathPrefix`). */
  readonly httpFilePathPrefix: string;
  verify(tenantId: string, domainName: string): Promise<VerificationResult>;
  /** The runner: verifies up to `batchSize` live challenges, least recently checked first. */
  verifyPending(batchSize?: number): Promise<PollingPassResult>;
  getChallenge(tenantId: string, domainName: string): Promise<DomainProofChallenge | undefined>;
}

export const domainVerificationKey = defineExtensionKey<TenantDomainVerification>(
  '@corekit/tenant-governance/domain-verification',
  'Domain-ownership proof challenges, publication plans, HTTP proof files and verification',
);
