import { webcrypto, type X509Certificate } from 'node:crypto';
import {
  BasicConstraints,
  Certificate,
  CertificateChainValidationEngine,
  CryptoEngine,
  type ICryptoEngine,
} from 'pkijs';

/** Why a certificate path was refused (RFC 5280 section 6 rules, as the refusal reasons of the callback). */
export type PathRefusal = 'chain-untrusted' | 'expired' | 'name-constraints' | 'path-length';

const basicConstraintsId = '2.5.29.19';
const keyUsageId = '2.5.29.15';
/** The first keyUsage bit (RFC 5280 4.2.1.3): digitalSignature, in the first byte's high bit. */
const digitalSignatureBit = 0x80;
/** pkijs result codes: 8 validity, 41 permitted subtrees, 42 excluded subtrees (the rest: untrusted). */
const validityCode = 8;
const nameConstraintCodes: ReadonlySet<number> = new Set([41, 42]);

let engine: ICryptoEngine | undefined;
function cryptoEngine(): ICryptoEngine {
  engine ??= new CryptoEngine({
    name: 'node',
    crypto: webcrypto as unknown as ConstructorParameters<typeof CryptoEngine>[0]['crypto'],
  });
  return engine;
}

/** A certificate in pkijs form (DER through Node's parser, so a PEM Node refuses never reaches pkijs). */
export function toPathCertificate(certificate: X509Certificate): Certificate {
  const der = certificate.raw;
  return Certificate.fromBER(der.buffer.slice(der.byteOffset, der.byteOffset + der.byteLength));
}

/**
 * True when the certificate may verify signatures: no keyUsage extension (any use), or one asserting
 * digitalSignature. Path validation leaves the end-entity key usage to the application (RFC 5280 6.1.5).
 */
export function allowsDigitalSignature(certificate: Certificate): boolean {
  const extension = certificate.extensions?.find((entry) => entry.extnID === keyUsageId);
  if (!extension) return true;
  const bits = (extension.parsedValue as { valueBlock?: { valueHexView?: Uint8Array } } | undefined)
    ?.valueBlock?.valueHexView;
  return bits !== undefined && bits.length > 0 && (bits[0]! & digitalSignatureBit) !== 0;
}

function pathLengthConstraint(certificate: Certificate): number | undefined {
  const extension = certificate.extensions?.find((entry) => entry.extnID === basicConstraintsId);
  const value = extension?.parsedValue;
  if (!(value instanceof BasicConstraints) || !value.cA) return undefined;
  const limit = value.pathLenConstraint;
  if (limit === undefined) return undefined;
  return typeof limit === 'number' ? limit : limit.valueBlock.valueDec;
}

function selfIssued(certificate: Certificate): boolean {
  return certificate.issuer.isEqual(certificate.subject);
}

/**
 * RFC 5280 6.1.4 (l)/(m), which the pkijs engine does not apply: every CA certificate of the path (the trust
 * anchor included, as OpenSSL does) allows at most `pathLenConstraint` non-self-issued intermediate CA
 * certificates between itself and the end-entity certificate. `path` is leaf first, anchor last.
 */
function pathLengthHolds(path: readonly Certificate[]): boolean {
  for (let index = 1; index < path.length; index++) {
    const limit = pathLengthConstraint(path[index]!);
    if (limit === undefined) continue;
    const below = path.slice(1, index).filter((certificate) => !selfIssued(certificate)).length;
    if (below > limit) return false;
  }
  return true;
}

/**
 * Validates the path from `leaf` through `intermediates` to one of `anchors` at `now` with the pkijs
 * certification path validation engine (signatures, name chaining, validity, CA basic constraints and
 * keyCertSign, name constraints, certificate policies), plus the path length constraints it skips. Answers
 * when the path stops being valid (the earliest notAfter on it) when the path holds, the refusal otherwise.
 */
export async function validateCertificatePath(
  leaf: Certificate,
  intermediates: readonly Certificate[],
  anchors: readonly Certificate[],
  now: Date,
): Promise<PathRefusal | { readonly validUntil: Date }> {
  // pkijs takes the end-entity certificate as the last element of `certs`.
  const validation = new CertificateChainValidationEngine({
    trustedCerts: [...anchors],
    certs: [...intermediates, leaf],
    checkDate: now,
  });
  let result;
  try {
    result = await validation.verify({}, cryptoEngine());
  } catch {
    return 'chain-untrusted';
  }
  if (!result.result) {
    if (result.resultCode === validityCode) return 'expired';
    if (nameConstraintCodes.has(result.resultCode)) return 'name-constraints';
    return 'chain-untrusted';
  }
  const path = result.certificatePath ?? [];
  if (path.length < 2) return 'chain-untrusted';
  if (!pathLengthHolds(path)) return 'path-length';
  const ends = path.map((certificate) => certificate.notAfter.value.getTime());
  return { validUntil: new Date(Math.min(...ends)) };
}
