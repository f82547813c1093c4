export { ModulePackages } from './module-packages';
export type { LoadedPackageModule, ModulePackagesOptions } from './module-packages';
export {
  discoveryOptionsSchema,
  packagePolicyOptionsSchema,
  trustOptionsSchema,
  matchesPackagePattern,
} from './package-options';
export type { DiscoveryOptions, PackagePolicyOptions, TrustOptions } from './package-options';
export {
  computePackageDigest,
  canonicalManifest,
  digestOf,
  describeDifferences,
  signatureFileName,
  manifestHeader,
} from './package-digest';
export type { PackageDigest, PackageFileDigest } from './package-digest';
export {
  signPackageDirectory,
  readPackageSignature,
  signatureAlgorithmOf,
  keyIdOf,
  certificateThumbprintOf,
  packageSignatureSchema,
  signatureFormat,
} from './package-signature';
export type { PackageSignature, SignatureAlgorithm, SignPackageOptions } from './package-signature';
export { createTrustStore, describeTrustStore } from './trust-store';
export type { TrustStore } from './trust-store';
export { verifyPackageSignature } from './signature-verification';
export type { SignatureVerdict, SignatureVerification } from './signature-verification';
export { verifyCertificateChain, codeSigningUsage } from './certificate-chain';
export type { CertificateSummary, ChainVerdict } from './certificate-chain';
export { readModulePackageManifest } from './package-manifest';
export type { ModulePackageManifest } from './package-manifest';
export { satisfies as satisfiesVersionRange, parseVersion, compareVersions } from './version-range';
export { routeKey, operationShapeProblems } from './module-operations';
