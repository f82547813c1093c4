/**
 * A small semantic-version range check for `Engine:PackagePolicy:AllowedVersionRanges`, written here so the
 * engine needs no extra dependency. It follows the npm range grammar that package authors already know:
 * `1.2.3`, `=1.2.3`, `>`, `>=`, `<`, `<=`, `^`, `~`, wildcards (`1.x`, `1.2.*`, `*`), hyphen ranges
 * (`1.2.0 - 2.0.0`), space for "and", `||` for "or". Like npm, a prerelease version (`2.0.0-beta.1`)
 * satisfies a range only when one comparator of the matching set names a prerelease of the same
 * major.minor.patch, so `^1.0.0` never admits `1.5.0-rc.1` by accident.
 */
export interface SemanticVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: ReadonlyArray<string | number>;
}

type Operator = '<' | '<=' | '>' | '>=' | '=';
interface Comparator {
  readonly operator: Operator;
  readonly version: SemanticVersion;
}
/** An empty set matches every release version. */
type ComparatorSet = readonly Comparator[];

const versionPattern =
  /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const partialPattern =
  /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses a full version (`1.2.3`, `1.2.3-rc.1`, build metadata ignored); undefined when it is not one. */
export function parseVersion(text: string): SemanticVersion | undefined {
  const match = versionPattern.exec(text.trim());
  if (!match) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: identifiers(match[4]),
  };
}

function identifiers(text: string | undefined): Array<string | number> {
  if (!text) return [];
  return text.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Negative, zero or positive as `left` precedes, equals or follows `right` (semver precedence). */
export function compareVersions(left: SemanticVersion, right: SemanticVersion): number {
  for (const field of ['major', 'minor', 'patch'] as const) {
    if (left[field] !== right[field]) return left[field] - right[field];
  }
  if (left.prerelease.length === 0 || right.prerelease.length === 0) {
    return right.prerelease.length - left.prerelease.length;
  }
  for (let index = 0; index < Math.max(left.prerelease.length, right.prerelease.length); index++) {
    const a = left.prerelease[index];
    const b = right.prerelease[index];
    if (a === undefined) return -1;
    if (b === undefined) return 1;
    if (a === b) continue;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'number') return -1;
    if (typeof b === 'number') return 1;
    return a < b ? -1 : 1;
  }
  return 0;
}

/** Parses a range; throws an Error whose message says which part is not understood. */
export function parseRange(text: string): readonly ComparatorSet[] {
  return text.split('||').map((alternative) => parseSet(alternative.trim(), text));
}

/** True when `range` is a range this checker understands. */
export function isValidRange(text: string): boolean {
  try {
    parseRange(text);
    return true;
  } catch {
    return false;
  }
}

/** True when `version` satisfies `range`; an unparsable version satisfies nothing. */
export function satisfies(version: string, range: string | readonly ComparatorSet[]): boolean {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  const sets = typeof range === 'string' ? parseRange(range) : range;
  return sets.some((set) => matchesSet(parsed, set));
}

function matchesSet(version: SemanticVersion, set: ComparatorSet): boolean {
  for (const comparator of set) if (!test(version, comparator)) return false;
  if (version.prerelease.length === 0) return true;
  return set.some(
    (comparator) =>
      comparator.version.prerelease.length > 0 &&
      comparator.version.major === version.major &&
      comparator.version.minor === version.minor &&
      comparator.version.patch === version.patch,
  );
}

function test(version: SemanticVersion, comparator: Comparator): boolean {
  const order = compareVersions(version, comparator.version);
  switch (comparator.operator) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    default:
      return order === 0;
  }
}

interface Partial {
  major: number | null;
  minor: number | null;
  patch: number | null;
  prerelease: Array<string | number>;
}

function parsePartial(text: string, whole: string): Partial {
  const match = partialPattern.exec(text);
  if (!match) throw new Error(`"${text}" in the range "${whole}" is not a version`);
  const part = (value: string | undefined) =>
    value === undefined || /^[xX*]$/.test(value) ? null : Number(value);
  const major = part(match[1]);
  const minor = major === null ? null : part(match[2]);
  const patch = minor === null ? null : part(match[3]);
  return { major, minor, patch, prerelease: patch === null ? [] : identifiers(match[4]) };
}

const version = (
  major: number,
  minor: number,
  patch: number,
  prerelease: Array<string | number> = [],
): SemanticVersion => ({
  major,
  minor,
  patch,
  prerelease,
});
/** The lowest version above a partial's span, as npm writes it (`<2.0.0-0`), so no 2.0.0 prerelease slips in. */
const floorOf = (major: number, minor: number, patch: number) => version(major, minor, patch, [0]);

function lower(partial: Partial): SemanticVersion {
  return version(partial.major ?? 0, partial.minor ?? 0, partial.patch ?? 0, partial.prerelease);
}

/** The exclusive upper end of a partial (`1.2` -> `<1.3.0-0`); undefined when the partial is a full version or `*`. */
function upperExclusive(partial: Partial): SemanticVersion | undefined {
  if (partial.major === null) return undefined;
  if (partial.minor === null) return floorOf(partial.major + 1, 0, 0);
  if (partial.patch === null) return floorOf(partial.major, partial.minor + 1, 0);
  return undefined;
}

function parseSet(text: string, whole: string): ComparatorSet {
  if (text === '' || text === '*' || /^[xX]$/.test(text)) return [];
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
  if (hyphen) {
    const from = parsePartial(hyphen[1], whole);
    const to = parsePartial(hyphen[2], whole);
    const result: Comparator[] = [{ operator: '>=', version: lower(from) }];
    const toUpper = upperExclusive(to);
    if (toUpper) result.push({ operator: '<', version: toUpper });
    else if (to.major !== null) result.push({ operator: '<=', version: lower(to) });
    return result;
  }
  const tokens = text.replace(/(<=|>=|<|>|=|\^|~)\s+/g, '$1').split(/\s+/);
  return tokens.flatMap((token) => expand(token, whole));
}

function expand(token: string, whole: string): Comparator[] {
  const match = /^(<=|>=|<|>|=|\^|~>?|)(.*)$/.exec(token)!;
  const operator = match[1];
  const partial = parsePartial(match[2], whole);
  const { major, minor, patch } = partial;
  const upper = upperExclusive(partial);
  if (major === null)
    return operator === '<' || operator === '>' ? [{ operator: '<', version: version(0, 0, 0, [0]) }] : [];
  switch (operator) {
    case '^': {
      let ceiling: SemanticVersion;
      if (major > 0 || minor === null) ceiling = floorOf(major + 1, 0, 0);
      else if (minor > 0 || patch === null) ceiling = floorOf(0, minor + 1, 0);
      else ceiling = floorOf(0, 0, patch + 1);
      return [
        { operator: '>=', version: lower(partial) },
        { operator: '<', version: ceiling },
      ];
    }
    case '~':
    case '~>': {
      const ceiling = minor === null ? floorOf(major + 1, 0, 0) : floorOf(major, minor + 1, 0);
      return [
        { operator: '>=', version: lower(partial) },
        { operator: '<', version: ceiling },
      ];
    }
    case '>':
      return upper
        ? [{ operator: '>=', version: version(upper.major, upper.minor, upper.patch) }]
        : [{ operator: '>', version: lower(partial) }];
    case '>=':
      return [{ operator: '>=', version: lower(partial) }];
    case '<':
      return [{ operator: '<', version: upper ? floorOf(major, minor ?? 0, patch ?? 0) : lower(partial) }];
    case '<=':
      return upper ? [{ operator: '<', version: upper }] : [{ operator: '<=', version: lower(partial) }];
    default:
      return upper
        ? [
            { operator: '>=', version: lower(partial) },
            { operator: '<', version: upper },
          ]
        : [{ operator: '=', version: lower(partial) }];
  }
}
