import { probeEventIds } from '@corekit/abstractions';

/** The section of the probe kinds (`Engine:Observability:DependencyHealth:<Kind>`), lower-cased. */
export const dependencyHealthPath = 'engine:observability:dependencyhealth';

/** Probe kinds whose registration or package name is not `add<Kind>Health` in `@corekit/probe-<kind>`. */
const irregular: Readonly<Record<string, { readonly register: string; readonly folder: string }>> = {
  PostgreSql: { register: 'addPostgresHealth', folder: 'postgres' },
  SqlServer: { register: 'addMssqlHealth', folder: 'mssql' },
};

/** The probe kind a section key names (case-insensitive), or undefined. */
export function probeKindOf(segment: string): string | undefined {
  return Object.keys(probeEventIds).find((kind) => kind.toLowerCase() === segment.toLowerCase());
}

/**
 * The problem for a probe section that is configured while its probe was never registered: the key names a
 * real probe kind, so "did you mean" would only repeat it; the fix is the missing `add<Kind>Health` call.
 */
export function unregisteredProbeSection(
  parentPath: string,
  segment: string,
  path: string,
): string | undefined {
  if (parentPath !== dependencyHealthPath) return undefined;
  const kind = probeKindOf(segment);
  if (!kind) return undefined;
  const { register, folder } = irregular[kind] ?? {
    register: `add${kind}Health`,
    folder: kind.toLowerCase(),
  };
  return (
    `\`${path}\` configures the ${kind} probe, but ${register}(builder) was not called: ` +
    `add it (from @corekit/probe-${folder}) before build(), or remove the section`
  );
}
