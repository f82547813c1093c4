import { z } from 'zod';
import { isValidRange } from './version-range';

/** `Engine:Discovery`: where out-of-tree module packages are staged. */
export const discoveryOptionsSchema = z.object({
  /**
   * Directories whose immediate subdirectories are candidate module packages (a `@scope` subdirectory
   * without a package.json is searched one level deeper, as npm lays scoped packages out). Relative paths
   * are resolved against the content root. Listed order matters: when two directories hold the same package
   * id, the first one wins. Default: none, so nothing is discovered.
   */
  PackageDirectories: z.array(z.string().min(1)).default([]),
  /** Most files one package may hold; a bigger package is rejected before any hashing. Default 10000. */
  MaxFilesPerPackage: z.number().int().positive().max(1_000_000).default(10_000),
});
export type DiscoveryOptions = z.infer<typeof discoveryOptionsSchema>;

const versionRangeRuleSchema = z.object({
  /** Package id or pattern (`*` matches any run of characters: `@acme/*`). */
  PackageId: z.string().min(1),
  /** npm-style range (`^1.2.0`, `>=1.0.0 <3.0.0`, `1.x || 2.x`). */
  Range: z
    .string()
    .min(1)
    .refine(isValidRange, { message: 'must be a version range such as "^1.2.0" or ">=1.0.0 <2.0.0"' }),
});

/** `Engine:PackagePolicy`: which discovered packages may load. Evaluated before any signature check or import. */
export const packagePolicyOptionsSchema = z.object({
  /** Ids or `*` patterns that may load. Empty (the default) means every id that is not denied. */
  AllowedPackageIds: z.array(z.string().min(1)).default([]),
  /** Ids or `*` patterns that never load; a deny wins over an allow. Default: none. */
  DeniedPackageIds: z.array(z.string().min(1)).default([]),
  /** Version rules; a package must satisfy every rule whose PackageId matches it. Default: none. */
  AllowedVersionRanges: z.array(versionRangeRuleSchema).default([]),
  /**
   * Whether a package without a signature file may load. Only meaningful when
   * `Engine:Trust:RequireSignatureVerification` is false; true together with required verification is a
   * configuration error. Default false.
   */
  AllowUnsignedPackages: z.boolean().default(false),
});
export type PackagePolicyOptions = z.infer<typeof packagePolicyOptionsSchema>;

/** `Engine:Trust`: which signers are trusted. */
export const trustOptionsSchema = z.object({
  /**
   * When true (the default) every package must carry a signature that verifies and whose signer is trusted
   * (a listed public key, or a certificate accepted by the certificate settings); an unsigned, tampered or
   * untrusted package is rejected and never imported. When false, a signature that is present is still
   * checked for integrity (a tampered package is still rejected), an untrusted signer is reported but
   * allowed, and unsigned packages follow `Engine:PackagePolicy:AllowUnsignedPackages`.
   */
  RequireSignatureVerification: z.boolean().default(true),
  /** Trusted signing keys: PEM (`-----BEGIN PUBLIC KEY-----`) or base64 of the DER SubjectPublicKeyInfo. */
  TrustedSignaturePublicKeys: z.array(z.string().min(1)).default([]),
  /**
   * Signing certificates accepted (pinned): PEM, base64 DER, or the SHA-256 thumbprint of the DER (hex,
   * colons allowed). When set, a certificate-signed package must be signed by one of them.
   */
  TrustedSignatureCertificates: z.array(z.string().min(1)).default([]),
  /** Root (or intermediate) authorities, PEM or base64 DER, to which a signing certificate must chain. */
  TrustedSignatureCertificateAuthorities: z.array(z.string().min(1)).default([]),
});
export type TrustOptions = z.infer<typeof trustOptionsSchema>;

/** True when `id` matches the exact id or `*` pattern. */
export function matchesPackagePattern(pattern: string, id: string): boolean {
  if (!pattern.includes('*')) return pattern === id;
  const expression = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`).test(id);
}
