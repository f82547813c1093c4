/** Levenshtein distance between two strings, compared case-insensitively. */
export function editDistance(left: string, right: string): number {
  const a = left.toLowerCase();
  const b = right.toLowerCase();
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidate closest to `key` by edit distance (case-insensitive), or undefined when none is close
 * enough to be a plausible misspelling: at most a third of the longer name's length, and never more than
 * 4 edits, unless one name starts with the other (`Postgres` for `PostgreSql`). Ties go to the first
 * candidate. It cannot tell a misspelling from a key meant for a package that is not registered.
 */
export function closestKey(key: string, candidates: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  const lowered = key.toLowerCase();
  for (const name of new Set(candidates)) {
    const distance = editDistance(key, name);
    const candidate = name.toLowerCase();
    const prefixed = lowered.length >= 3 && (candidate.startsWith(lowered) || lowered.startsWith(candidate));
    const limit = Math.min(4, Math.ceil(Math.max(key.length, name.length) / 3));
    if (distance > limit && !prefixed) continue;
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

/** Most known keys a problem lists when none is close to the unknown one. */
const listedKeys = 24;

/**
 * The problem for an unknown key `path` whose last segment is `segment`, below `parentPath`: the closest of
 * `candidates` (the known keys there), or, when none is close enough to be a misspelling, the known keys
 * themselves, so that every unknown key points at what the section takes.
 */
export function unknownKeyProblem(
  path: string,
  parentPath: string,
  segment: string,
  candidates: Iterable<string>,
): string {
  const names = [...new Set(candidates)];
  const suggestion = closestKey(segment, names);
  if (suggestion) return `\`${path}\` is not a known key; did you mean \`${suggestion}\`?`;
  if (names.length === 0) return `\`${path}\` is not a known key`;
  const shown = names.slice(0, listedKeys).map((name) => `\`${name}\``);
  const more = names.length > listedKeys ? ` and ${names.length - listedKeys} more` : '';
  return `\`${path}\` is not a known key; none of the keys of \`${parentPath}\` is close: ${shown.join(', ')}${more}`;
}
