import { isSecretSchema } from '@corekit/abstractions';
import { unknownKeyProblem } from './closest-key';

/**
 * Which configuration keys some code asked for. Every `bind` records its path and schema, every raw `get`
 * its path (the whole subtree then counts as known); `unknownKeys` lists the keys under `Engine:` that
 * nothing covered, each with the closest known sibling. It only knows the bindings made so far: call it
 * once every registration has bound its section. Schemas it cannot see into (transforms, `z.custom`,
 * `z.any`, passthrough objects, record values of such types) accept every key below them.
 */

/** The parts of a zod v4 definition the walkers read. */
export type AnyDef = {
  type: string;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  element?: unknown;
  shape?: Record<string, unknown>;
  catchall?: unknown;
  valueType?: unknown;
  options?: unknown[];
  items?: unknown[];
  rest?: unknown;
  left?: unknown;
  right?: unknown;
  getter?: () => unknown;
};

export function defOf(schema: unknown): AnyDef | undefined {
  return (schema as { _zod?: { def?: AnyDef } })?._zod?.def;
}

const wrappers = ['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional'];

/** The schema under optional/default/nullable/prefault/readonly/catch/lazy wrappers and the input side of pipes. */
export function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let depth = 0; depth < 16; depth++) {
    const def = defOf(current);
    if (!def) return current;
    if (wrappers.includes(def.type)) current = def.innerType;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else if (def.type === 'pipe') current = defOf(def.in)?.type === 'transform' ? def.out : def.in;
    else return current;
  }
  return current;
}

/** The sides of a schema that describe structure: both ends of a pipe except transforms, or the schema. */
function structuralSides(schema: unknown): unknown[] {
  const def = defOf(schema);
  if (def?.type !== 'pipe') return [schema];
  const sides = [def.in, def.out].filter((side) => defOf(unwrap(side))?.type !== 'transform');
  return sides.flatMap((side) => structuralSides(unwrap(side)));
}

/** Result of walking key segments through a schema: known, or unknown at a segment with sibling names. */
export type KeyWalk = { ok: true } | { ok: false; at: number; candidates: string[] };

const known: KeyWalk = { ok: true };

function deepest(walks: KeyWalk[]): KeyWalk {
  if (walks.length === 0 || walks.some((walk) => walk.ok)) return known;
  const failures = walks as Array<{ ok: false; at: number; candidates: string[] }>;
  const at = Math.max(...failures.map((walk) => walk.at));
  const candidates = failures.filter((walk) => walk.at === at).flatMap((walk) => walk.candidates);
  return { ok: false, at, candidates };
}

/** Whether `schema` accepts the key path `segments` (from `index` on) below the value it validates. */
export function walkKeys(schema: unknown, segments: readonly string[], index = 0): KeyWalk {
  if (index >= segments.length) return known;
  const sides = structuralSides(unwrap(schema));
  if (sides.length > 1) return deepest(sides.map((side) => walkKeys(side, segments, index)));
  const def = defOf(sides[0]);
  if (!def) return known;
  const segment = segments[index];
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const name = Object.keys(shape).find((key) => key.toLowerCase() === segment.toLowerCase());
      if (name !== undefined) return walkKeys(shape[name], segments, index + 1);
      if (def.catchall !== undefined && defOf(def.catchall)?.type !== 'never')
        return walkKeys(def.catchall, segments, index + 1);
      return { ok: false, at: index, candidates: Object.keys(shape) };
    }
    case 'array':
      return /^\d+$/.test(segment)
        ? walkKeys(def.element, segments, index + 1)
        : { ok: false, at: index, candidates: [] };
    case 'tuple': {
      const item = /^\d+$/.test(segment) ? (def.items?.[Number(segment)] ?? def.rest) : undefined;
      return item ? walkKeys(item, segments, index + 1) : { ok: false, at: index, candidates: [] };
    }
    case 'record':
      return walkKeys(def.valueType, segments, index + 1);
    case 'union':
      return deepest((def.options ?? []).map((option) => walkKeys(option, segments, index)));
    case 'intersection':
      return deepest([walkKeys(def.left, segments, index), walkKeys(def.right, segments, index)]);
    case 'any':
    case 'unknown':
    case 'custom':
    case 'transform':
    case 'map':
      return known;
    default:
      return { ok: false, at: index, candidates: [] };
  }
}

/** Every string bound through a `secretString()` field of `schema` in the validated `value`, however deep. */
export function secretValues(
  schema: unknown,
  value: unknown,
  into: Set<string> = new Set(),
  depth = 0,
): Set<string> {
  if (depth > 32 || value === undefined || value === null) return into;
  if (typeof value === 'string') {
    if (isSecretSchema(schema) || isSecretSchema(unwrap(schema))) into.add(value);
    return into;
  }
  if (typeof value !== 'object') return into;
  for (const side of structuralSides(unwrap(schema))) {
    const def = defOf(side);
    if (!def) continue;
    const children = Object.entries(value as Record<string, unknown>);
    switch (def.type) {
      case 'object':
        for (const [key, child] of children) {
          const field = def.shape?.[key] ?? def.catchall;
          if (field !== undefined) secretValues(field, child, into, depth + 1);
        }
        break;
      case 'array':
        for (const [, child] of children) secretValues(def.element, child, into, depth + 1);
        break;
      case 'tuple':
        for (const [key, child] of children)
          secretValues(def.items?.[Number(key)] ?? def.rest, child, into, depth + 1);
        break;
      case 'record':
        for (const [, child] of children) secretValues(def.valueType, child, into, depth + 1);
        break;
      case 'union':
        for (const option of def.options ?? []) secretValues(option, value, into, depth + 1);
        break;
      case 'intersection':
        secretValues(def.left, value, into, depth + 1);
        secretValues(def.right, value, into, depth + 1);
        break;
      default:
        break;
    }
  }
  return into;
}

/** A key path set by some source, as the configuration store holds it. */
export interface SourcedKey {
  readonly path: string;
  readonly source: string;
}

interface Coverage {
  readonly segments: readonly string[];
  /** The bound schema; `anyChild` for raw reads (everything below is known); `nodeOnly` for getSection. */
  readonly schema: unknown;
}

/** Marks a raw read: every key below the path is the reader's business. */
export const anyChild = Symbol('anyChild');
/** Marks a section read whose children must be bound separately (`getSection` then `bind` per child). */
export const nodeOnly = Symbol('nodeOnly');

/** The known key paths, and the problems of the keys outside them. */
export class KnownKeys {
  private readonly coverage: Coverage[] = [];

  constructor(
    /** Extra names to suggest for a key directly below a path (the probe kinds under DependencyHealth). */
    private readonly extraCandidates: (parentPath: string) => readonly string[] = () => [],
    /**
     * A better problem than a suggestion for a known name nothing bound (a probe section whose `add<Kind>Health`
     * was not called): given the lower-cased parent path, the segment and the full path, the whole message, or
     * undefined for the usual "did you mean".
     */
    private readonly explain: (
      parentPath: string,
      segment: string,
      path: string,
    ) => string | undefined = () => undefined,
  ) {}

  record(keyPath: string, schema: unknown): void {
    this.coverage.push({ segments: split(keyPath), schema });
  }

  /**
   * One problem per unknown key (its path cut at the first unknown segment), naming sources and the closest
   * known key, or the known keys there when none is close.
   */
  unknownKeys(keys: Iterable<SourcedKey>): string[] {
    const unknown = new Map<string, { path: string; sources: Set<string>; problem: string }>();
    for (const key of keys) {
      const segments = split(key.path);
      if (segments.length < 2 || segments[0].toLowerCase() !== 'engine') continue;
      const walk = deepest(this.coverage.map((coverage) => this.walk(coverage, segments)));
      const failure = walk.ok ? undefined : walk;
      if (!failure && this.coverage.length > 0) continue;
      const at = failure?.at ?? 1;
      const path = segments.slice(0, at + 1).join(':');
      const parent = segments.slice(0, at).join(':');
      const entry = unknown.get(path.toLowerCase()) ?? {
        path,
        sources: new Set<string>(),
        problem:
          this.explain(parent.toLowerCase(), segments[at], path) ??
          unknownKeyProblem(path, parent, segments[at], [
            ...(failure?.candidates ?? []),
            ...this.extraCandidates(parent.toLowerCase()),
          ]),
      };
      entry.sources.add(key.source);
      unknown.set(path.toLowerCase(), entry);
    }
    return [...unknown.values()].map(
      ({ problem, sources }) => `${problem} (set in ${[...sources].join(', ')})`,
    );
  }

  private walk(coverage: Coverage, segments: readonly string[]): KeyWalk {
    const bound = coverage.segments;
    let common = 0;
    while (
      common < bound.length &&
      common < segments.length &&
      bound[common].toLowerCase() === segments[common].toLowerCase()
    )
      common++;
    if (common === segments.length) return known;
    if (common < bound.length) return { ok: false, at: common, candidates: [bound[common]] };
    if (coverage.schema === anyChild) return known;
    if (coverage.schema === nodeOnly) return { ok: false, at: common, candidates: [] };
    const walk = walkKeys(coverage.schema, segments, common);
    return walk;
  }
}

function split(keyPath: string): string[] {
  return keyPath.split(':').filter((segment) => segment.length > 0);
}
