// Which release a change of a package's public surface needs under the version policy (docs/releasing.md), and
// whether the pending changesets give it.
import type { SurfaceChange } from './surface-diff';
import { describeChange, isUnchanged } from './surface-diff';

export type BumpType = 'none' | 'patch' | 'minor' | 'major';

const rank: Record<BumpType, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/**
 * Within 0.x (docs/releasing.md, "Versions"):
 * - an addition (a new export, a member added to an exported declaration) is a feature: **minor**;
 * - a removal or change in a **contract package** (`@corekit/abstractions`, or a package other packages peer on:
 *   they promise their dependents every 0.x minor keeps working) breaks packs already built: **major**
 *   (for the abstractions, with a new pack contract specification version);
 * - a removal or change in any other package is a **minor** whose changeset says what changed and what to do:
 *   the check asks that a changeset of the release names each removed or changed export.
 */
export function requiredBump(change: SurfaceChange, contract: boolean): BumpType {
  if (change.removed.length + change.changed.length > 0) return contract ? 'major' : 'minor';
  return isUnchanged(change) ? 'none' : 'minor';
}

/** What the pending changesets release a package as, and the text of those changesets. */
export interface PendingRelease {
  readonly type: BumpType;
  readonly summaries: readonly string[];
}

/** The problem with a package's surface change under the pending release, or undefined when it is covered. */
export function bumpProblem(
  name: string,
  change: SurfaceChange,
  contract: boolean,
  pending: PendingRelease,
  baseline: string,
): string | undefined {
  const needed = requiredBump(change, contract);
  const what = `${name}: public API changed since ${baseline}: ${describeChange(change)}`;
  if (rank[pending.type] < rank[needed]) {
    const why =
      needed === 'major'
        ? `A removal or change in ${name} needs a major changeset (other packages rely on it within 0.x: docs/releasing.md)`
        : `This needs a ${needed} changeset for ${name}`;
    const now =
      pending.type === 'none'
        ? 'no pending changeset releases it'
        : `the pending changesets release it as ${pending.type}`;
    return `${what}. ${why}; ${now}.`;
  }
  if (needed === 'minor' && !contract) {
    const unnamed = [...change.removed, ...change.changed].filter(
      (export_) => !pending.summaries.some((summary) => summary.includes(export_)),
    );
    if (unnamed.length > 0)
      return (
        `${what}. A removal or change in 0.x is a minor whose changeset tells users what to do: no pending ` +
        `changeset of ${name} names ${unnamed.map((entry) => `\`${entry}\``).join(', ')}.`
      );
  }
  return undefined;
}
