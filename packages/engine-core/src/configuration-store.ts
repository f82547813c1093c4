import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ZodType } from 'zod';
import { CoreError, isPlaceholder, isSecretSchema, type ConfigurationReader } from '@corekit/abstractions';

interface Leaf {
  /** The key path as last written, original casing (`Engine:FailurePolicy:StartupReadinessDelay`). */
  readonly path: string;
  readonly value: unknown;
  /** Where the value came from, for error messages (`engine.json`, `environment`, `code`). */
  readonly source: string;
}

export interface ConfigurationSources {
  /** Directory holding engine.json and engine.<environmentName>.json. */
  readonly contentRoot: string;
  readonly environmentName?: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** Options passed in code; win over every other source. */
  readonly code?: Record<string, unknown>;
}

const separator = ':';

function flatten(value: unknown, prefix: string, source: string, into: Map<string, Leaf>): void {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    if (entries.length === 0 && prefix)
      into.set(prefix.toLowerCase(), { path: prefix, value: Array.isArray(value) ? [] : {}, source });
    for (const [key, child] of entries)
      flatten(child, prefix ? `${prefix}${separator}${key}` : key, source, into);
    return;
  }
  if (value === undefined || !prefix) return;
  into.set(prefix.toLowerCase(), { path: prefix, value, source });
}

function readJsonFile(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CoreError(
      'CONFIGURATION_FILE_INVALID',
      `${file} is not valid JSON: ${(error as Error).message}`,
      { file },
    );
  }
}

/**
 * The merged configuration. Sources, later wins: engine.json, engine.<environment>.json, environment
 * variables (`Engine__FailurePolicy__StartupReadinessDelay` is `Engine:FailurePolicy:StartupReadinessDelay`),
 * then options passed in code. Keys are compared case-insensitively.
 */
export class ConfigurationStore implements ConfigurationReader {
  private readonly leaves = new Map<string, Leaf>();

  constructor(sources: ConfigurationSources) {
    const base = readJsonFile(path.join(sources.contentRoot, 'engine.json'));
    if (base) flatten(base, '', 'engine.json', this.leaves);
    if (sources.environmentName) {
      const name = `engine.${sources.environmentName}.json`;
      const specific = readJsonFile(path.join(sources.contentRoot, name));
      if (specific) flatten(specific, '', name, this.leaves);
    }
    for (const [key, value] of Object.entries(sources.environment)) {
      if (value === undefined || !key.includes('__')) continue;
      const keyPath = key.split('__').filter(Boolean).join(separator);
      this.leaves.set(keyPath.toLowerCase(), { path: keyPath, value, source: 'environment' });
    }
    if (sources.code) flatten(sources.code, '', 'code', this.leaves);
  }

  get(keyPath: string): unknown {
    const leaf = this.leaves.get(keyPath.toLowerCase());
    if (leaf) return leaf.value;
    return this.getSection(keyPath);
  }

  getSection(keyPath: string): unknown {
    const prefix = keyPath ? `${keyPath.toLowerCase()}${separator}` : '';
    const tree: Record<string, unknown> = {};
    let found = false;
    for (const [lowered, leaf] of this.leaves) {
      if (!lowered.startsWith(prefix)) continue;
      found = true;
      const segments = leaf.path.split(separator).slice(prefix ? keyPath.split(separator).length : 0);
      insert(tree, segments, leaf.value);
    }
    return found ? toArrays(tree) : undefined;
  }

  /** The source that supplied a key path, for diagnostics; undefined when no source sets it. */
  sourceOf(keyPath: string): string | undefined {
    return this.leaves.get(keyPath.toLowerCase())?.source;
  }

  bind<T>(keyPath: string, schema: ZodType<T>, codeOptions?: unknown): T {
    let raw = this.getSection(keyPath);
    if (codeOptions !== undefined) raw = mergeCaseInsensitive(raw, codeOptions);
    return bindValue(keyPath, schema, raw ?? {});
  }
}

/** Validates `raw` against `schema` after matching keys case-insensitively and coercing strings. */
export function bindValue<T>(keyPath: string, schema: ZodType<T>, raw: unknown): T {
  const problems: string[] = [];
  const normalized = normalize(schema, raw, keyPath, problems);
  const parsed = schema.safeParse(normalized);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const fullPath = [keyPath, ...issue.path.map(String)].filter(Boolean).join(separator);
      const value = valueAt(normalized, issue.path);
      const secret = isSecretSchema(schemaAt(schema, issue.path));
      const field = String(issue.path[issue.path.length - 1] ?? keyPath.split(separator).pop() ?? '');
      const got =
        value === undefined
          ? 'nothing'
          : secret || mayHoldSecret(field, value)
            ? 'a value that may hold a secret (not shown)'
            : JSON.stringify(value);
      problems.push(
        `${fullPath} ${issue.message.replace(/^Invalid input: /, '').replace(/^expected/, 'must be')}, got ${got}`,
      );
    }
  }
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: keyPath,
      problems,
    });
  }
  return (parsed as { data: T }).data;
}

const secretFieldName = /password|passwd|secret|token|apikey|api_key|credential|connectionstring|privatekey/i;
const embeddedSecret = /\/\/[^/\s:@]*:[^/\s@]+@|(?:password|pwd|secret|token)\s*=/i;

/**
 * True when a rejected value must not be echoed in an error: the field's name says it holds a secret, or the
 * value carries one inline (URL user-info, `Password=` in a connection string). Such values are not shown.
 */
export function mayHoldSecret(field: string, value: unknown): boolean {
  if (secretFieldName.test(field)) return true;
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return embeddedSecret.test(text);
}

function insert(tree: Record<string, unknown>, segments: string[], value: unknown): void {
  let node = tree;
  for (let index = 0; index < segments.length - 1; index++) {
    const key = findKey(node, segments[index]) ?? segments[index];
    if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1];
  const existing = findKey(node, last);
  if (existing && existing !== last) delete node[existing];
  node[last] = value;
}

function findKey(node: Record<string, unknown>, key: string): string | undefined {
  const lowered = key.toLowerCase();
  return Object.keys(node).find((candidate) => candidate.toLowerCase() === lowered);
}

function toArrays(node: unknown): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const entries = Object.entries(node);
  const converted = entries.map(([key, child]) => [key, toArrays(child)] as const);
  if (entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key))) {
    const array: unknown[] = [];
    for (const [key, child] of converted) array[Number(key)] = child;
    return array;
  }
  return Object.fromEntries(converted);
}

function mergeCaseInsensitive(base: unknown, overlay: unknown): unknown {
  if (overlay === undefined) return base;
  if (Array.isArray(overlay) || overlay === null || typeof overlay !== 'object') return overlay;
  const result: Record<string, unknown> =
    base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(overlay)) {
    const existing = findKey(result, key);
    const merged = mergeCaseInsensitive(existing ? result[existing] : undefined, value);
    if (existing) delete result[existing];
    result[key] = merged;
  }
  return result;
}

type AnyDef = {
  type: string;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  shape?: Record<string, unknown>;
  options?: unknown[];
};

function defOf(schema: unknown): AnyDef | undefined {
  return (schema as { _zod?: { def?: AnyDef } })?._zod?.def;
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let depth = 0; depth < 10; depth++) {
    const def = defOf(current);
    if (!def) return current;
    if (
      ['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)
    )
      current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else return current;
  }
  return current;
}

function normalize(schema: unknown, raw: unknown, keyPath: string, problems: string[]): unknown {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (isSecretSchema(schema) && isPlaceholder(raw)) {
    problems.push(
      `${keyPath} still holds the placeholder ${String(raw)}; supply the real secret (for example through the environment variable ${keyPath.split(separator).join('__')})`,
    );
    return raw;
  }
  if (!def) return raw;
  switch (def.type) {
    case 'object': {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
      const shape = def.shape ?? {};
      const result: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        const schemaKey = Object.keys(shape).find(
          (candidate) => candidate.toLowerCase() === key.toLowerCase(),
        );
        const target = schemaKey ?? key;
        result[target] = schemaKey
          ? normalize(shape[schemaKey], value, `${keyPath}${separator}${target}`, problems)
          : value;
      }
      return result;
    }
    case 'array': {
      if (!Array.isArray(raw)) return raw;
      return raw.map((item, index) =>
        normalize(def.element, item, `${keyPath}${separator}${index}`, problems),
      );
    }
    case 'number':
    case 'int': {
      if (typeof raw === 'string' && raw.trim() !== '' && !Number.isNaN(Number(raw))) return Number(raw);
      return raw;
    }
    case 'boolean': {
      if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim()))
        return raw.trim().toLowerCase() === 'true';
      return raw;
    }
    case 'enum': {
      const values = Object.values((def as unknown as { entries: Record<string, string> }).entries ?? {});
      if (typeof raw === 'string')
        return values.find((candidate) => candidate.toLowerCase() === raw.toLowerCase()) ?? raw;
      return raw;
    }
    default:
      return raw;
  }
}

function valueAt(value: unknown, issuePath: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of issuePath) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function schemaAt(schema: unknown, issuePath: readonly PropertyKey[]): unknown {
  let current = schema;
  for (const key of issuePath) {
    const def = defOf(unwrap(current));
    if (!def) return undefined;
    if (def.type === 'object') current = def.shape?.[String(key)];
    else if (def.type === 'array') current = def.element;
    else return undefined;
  }
  return current;
}
