/**
 * Merging of code options over a configured probe section: per field, code wins; dependencies are matched
 * by Id (code fields override the configured entry's), and code entries with a new Id are appended.
 * Keys are matched case-insensitively and renamed to the schema's spelling.
 */

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Arrays from configuration can arrive as objects keyed `0`, `1`... (environment variables); list them in order. */
function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isPlain(value)) {
    return Object.keys(value)
      .filter((key) => /^\d+$/.test(key))
      .sort((a, b) => Number(a) - Number(b))
      .map((key) => value[key]);
  }
  return [];
}

/** Copy of `value` with keys renamed to the canonical spelling in `names` (case-insensitive), undefined dropped. */
export function canonicalizeKeys(value: unknown, names: readonly string[]): Plain {
  const byLowerCase = new Map(names.map((name) => [name.toLowerCase(), name]));
  const result: Plain = {};
  if (!isPlain(value)) return result;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    result[byLowerCase.get(key.toLowerCase()) ?? key] = item;
  }
  return result;
}

/**
 * The section to validate: `configured` (from configuration) with `code` merged over it. Returns plain
 * data in the schema's key spelling; validation happens afterwards.
 */
export function mergeProbeOptions(
  configured: unknown,
  code: unknown,
  sectionKeys: readonly string[],
  entryKeys: readonly string[],
): Plain {
  const section = canonicalizeKeys(configured, sectionKeys);
  const overrides = canonicalizeKeys(code, sectionKeys);
  const dependencies = asList(section.Dependencies).map((entry) =>
    isPlain(entry) ? canonicalizeKeys(entry, entryKeys) : entry,
  );
  const configuredCount = dependencies.length;
  const overridden = new Set<number>();
  for (const codeEntry of asList(overrides.Dependencies)) {
    const entry = isPlain(codeEntry) ? canonicalizeKeys(codeEntry, entryKeys) : codeEntry;
    const id = isPlain(entry) ? entry.Id : undefined;
    // Only configured entries are overridden, each once: two code entries with one Id stay two (and fail as duplicates).
    const index =
      id === undefined
        ? -1
        : dependencies.findIndex(
            (existing, position) =>
              position < configuredCount &&
              !overridden.has(position) &&
              isPlain(existing) &&
              existing.Id === id,
          );
    if (index >= 0 && isPlain(entry)) {
      overridden.add(index);
      dependencies[index] = { ...(dependencies[index] as Plain), ...entry };
    } else {
      dependencies.push(entry);
    }
  }
  const merged: Plain = { ...section, ...overrides };
  if (dependencies.length > 0 || merged.Dependencies !== undefined) merged.Dependencies = dependencies;
  return merged;
}
