import { matchesPackagePattern, type PackagePolicyOptions } from './package-options';
import { satisfies } from './version-range';

/**
 * Applies `Engine:PackagePolicy` to a package id and version. Returns the reasons it is denied; empty when
 * it may load (as far as the policy goes: trust is judged afterwards).
 */
export function packagePolicyDenials(policy: PackagePolicyOptions, id: string, version: string): string[] {
  const reasons: string[] = [];
  const denied = policy.DeniedPackageIds.find((pattern) => matchesPackagePattern(pattern, id));
  if (denied !== undefined)
    reasons.push(`the package id ${id} matches "${denied}" in Engine:PackagePolicy:DeniedPackageIds`);
  if (
    policy.AllowedPackageIds.length > 0 &&
    !policy.AllowedPackageIds.some((pattern) => matchesPackagePattern(pattern, id))
  ) {
    reasons.push(`the package id ${id} is not listed in Engine:PackagePolicy:AllowedPackageIds`);
  }
  policy.AllowedVersionRanges.forEach((rule, index) => {
    if (matchesPackagePattern(rule.PackageId, id) && !satisfies(version, rule.Range)) {
      reasons.push(
        `version ${version} does not satisfy "${rule.Range}" (Engine:PackagePolicy:AllowedVersionRanges:${index})`,
      );
    }
  });
  return reasons;
}

/** The effective package policy as `/engine/package-policy` shows it. */
export function describePackagePolicy(policy: PackagePolicyOptions): Record<string, unknown> {
  return {
    allowedPackageIds: [...policy.AllowedPackageIds],
    deniedPackageIds: [...policy.DeniedPackageIds],
    allowedVersionRanges: policy.AllowedVersionRanges.map((rule) => ({
      packageId: rule.PackageId,
      range: rule.Range,
    })),
    allowUnsignedPackages: policy.AllowUnsignedPackages,
  };
}
