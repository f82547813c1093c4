import type { PackageRecord } from '@corekit/abstractions';
import { isoAt } from '../clock';
import type { PackageCandidate } from './package-discovery';
import type { PackagePolicyOptions } from './package-options';
import type { SignatureVerdict } from './signature-verification';
import type { TrustStore } from './trust-store';

/** Last reason of a package rejected for want of a trusted signature. */
export const requiredReason =
  'a trusted signature is required (Engine:Trust:RequireSignatureVerification is true)';

/** The fields of a package record before any check has run: nothing signed, verified, loaded or routed yet. */
export function uncheckedPackageFields(candidate: PackageCandidate, now: number) {
  return {
    directory: candidate.directory,
    packageDirectory: candidate.source,
    discoveredAtUtc: isoAt(now),
    loadedAtUtc: null as string | null,
    moduleEntry: null as string | null,
    moduleId: null as string | null,
    signed: false,
    verification: 'not-evaluated' as SignatureVerdict['verification'] | 'not-evaluated',
    digest: null as string | null,
    fileCount: null as number | null,
    signatureAlgorithm: null as string | null,
    signingKeyId: null as string | null,
    certificateThumbprint: null as string | null,
    certificateThumbprintAlgorithm: null as string | null,
    certificateSubject: null as string | null,
    certificateChain: [] as unknown[],
    routes: [] as Array<{ method: string; path: string }>,
  };
}

/** The record fields a signature verdict fills. */
export function verdictFields(verdict: SignatureVerdict) {
  return {
    signed: verdict.verification !== 'unsigned',
    verification: verdict.verification,
    signatureAlgorithm: verdict.signatureAlgorithm,
    signingKeyId: verdict.signingKeyId,
    certificateThumbprint: verdict.certificateThumbprint,
    certificateThumbprintAlgorithm: verdict.certificateThumbprint ? 'sha256' : null,
    certificateSubject: verdict.certificateSubject,
    certificateChain: [...verdict.certificateChain],
  };
}

/**
 * What trust makes of a verdict: an invalid signature is rejected; an unsigned package or an untrusted signer is
 * rejected when `Engine:Trust:RequireSignatureVerification`, an unsigned one denied unless
 * `Engine:PackagePolicy:AllowUnsignedPackages`; otherwise it may load, with `notes` saying why it was let in.
 */
export function trustDecision(
  verdict: SignatureVerdict,
  trust: Pick<TrustStore, 'requireSignatureVerification'>,
  policy: Pick<PackagePolicyOptions, 'AllowUnsignedPackages'>,
):
  | { readonly outcome: Extract<PackageRecord['outcome'], 'rejected' | 'denied'>; readonly reasons: string[] }
  | { readonly outcome: null; readonly notes: string[] } {
  if (verdict.verification === 'invalid') return { outcome: 'rejected', reasons: [...verdict.reasons] };
  if (verdict.verification !== 'unsigned' && verdict.verification !== 'untrusted-signer') {
    return { outcome: null, notes: [] };
  }
  if (trust.requireSignatureVerification) {
    return { outcome: 'rejected', reasons: [...verdict.reasons, requiredReason] };
  }
  if (verdict.verification === 'unsigned' && !policy.AllowUnsignedPackages) {
    return {
      outcome: 'denied',
      reasons: ['the package is unsigned and Engine:PackagePolicy:AllowUnsignedPackages is false'],
    };
  }
  return {
    outcome: null,
    notes: [
      ...verdict.reasons,
      'loaded without a trusted signature because Engine:Trust:RequireSignatureVerification is false',
    ],
  };
}
