// What changed between two API reports of one package: declarations added, removed, changed, and extended (every
// line of the old declaration kept in order, lines added: a new member of an interface, a new property of a
// const object), read from API Extractor's `.api.md` text.

/** One exported declaration of a report, keyed by its name (overloads of one function are one entry). */
export type Surface = ReadonlyMap<string, string>;

export interface SurfaceChange {
  readonly added: readonly string[];
  /** Declarations that kept every line and gained some: counted as additions. */
  readonly extended: readonly string[];
  readonly removed: readonly string[];
  /** Declarations with a line removed or rewritten: a change a user's code may break on. */
  readonly changed: readonly string[];
}

const declarationName =
  /^export (?:declare )?(?:abstract )?(?:function|interface|type|const|let|var|class|enum|namespace) ([\w$]+)/;

/** The declarations of an API Extractor report (`.api.md`), by name. Imports and comments are not surface. */
export function parseReport(report: string): Surface {
  const code = /```ts\n([\s\S]*?)```/.exec(report)?.[1] ?? '';
  const surface = new Map<string, string>();
  let current: string[] = [];
  const flush = () => {
    const body = current
      .filter((line) => !/^\s*\/\/ /.test(line))
      .join('\n')
      .trim();
    current = [];
    if (!body) return;
    for (const name of namesOf(body))
      surface.set(name, surface.has(name) ? `${surface.get(name)}\n${body}` : body);
  };
  for (const line of code.split('\n')) {
    if (/^import /.test(line)) continue;
    // Every top-level declaration of a report starts with its release tag comment (`// @public`).
    if (/^\/\/ @/.test(line)) flush();
    if (/^export \{/.test(line) || /^export \* /.test(line)) {
      flush();
      current.push(line);
      flush();
      continue;
    }
    current.push(line);
  }
  flush();
  return surface;
}

/** The names a declaration block exports: its declared name, or each name of an `export { a, b as c }`. */
function namesOf(body: string): string[] {
  const declared = declarationName.exec(body);
  if (declared) return [declared[1]!];
  const list = /^export \{([^}]*)\}/.exec(body);
  if (list)
    return list[1]!
      .split(',')
      .map((entry) =>
        entry
          .trim()
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      )
      .filter(Boolean);
  return [body.split('\n')[0]!];
}

export function compareSurfaces(before: Surface, after: Surface): SurfaceChange {
  const added: string[] = [];
  const extended: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [name, text] of after) {
    const old = before.get(name);
    if (old === undefined) added.push(name);
    else if (old !== text) (keepsEveryLine(old, text) ? extended : changed).push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) removed.push(name);
  return { added, extended, removed, changed };
}

/** Whether `after` holds every line of `before`, in order (lines were only added). */
function keepsEveryLine(before: string, after: string): boolean {
  const wanted = before.split('\n').map(normalizeLine);
  let index = 0;
  for (const line of after.split('\n').map(normalizeLine)) {
    if (index < wanted.length && line === wanted[index]) index += 1;
  }
  return index === wanted.length;
}

/** A line without the trailing comma or semicolon a following addition may bring. */
function normalizeLine(line: string): string {
  return line.replace(/[,;]\s*$/, '').trimEnd();
}

export function isUnchanged(change: SurfaceChange): boolean {
  return change.added.length + change.extended.length + change.removed.length + change.changed.length === 0;
}

/** "removed `a`; changed `B`; added `c`, `d`" (what a failure names). */
export function describeChange(change: SurfaceChange): string {
  const parts: string[] = [];
  const list = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');
  if (change.removed.length) parts.push(`removed ${list(change.removed)}`);
  if (change.changed.length) parts.push(`changed ${list(change.changed)}`);
  if (change.extended.length) parts.push(`added members to ${list(change.extended)}`);
  if (change.added.length) parts.push(`added ${list(change.added)}`);
  return parts.join('; ');
}
