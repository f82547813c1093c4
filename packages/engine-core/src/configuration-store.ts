import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ZodType } from 'zod';
import { CoreError, probeEventIds, type ConfigurationReader } from '@corekit/abstractions';
import { bindValue } from './bind-value';
import { anyChild, KnownKeys, nodeOnly, secretValues } from './configuration-keys';
import { dependencyHealthPath, unregisteredProbeSection } from './probe-sections';

export { bindValue, mayHoldSecret } from './bind-value';

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
  /** Receives every value bound through a `secretString()` field (the builder passes `logger.addSecret`). */
  readonly onSecret?: (value: string) => void;
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
/**
 * The merged configuration and the one section binder. Sources, later wins: engine.json,
 * engine.<environment>.json, environment variables (`Engine__FailurePolicy__StartupReadinessDelay` is
 * `Engine:FailurePolicy:StartupReadinessDelay`), then options passed in code. Keys are compared
 * case-insensitively. `bind` merges code options, coerces, validates, registers secrets and records the keys
 * its schema knows; `assertKnownKeys` then refuses every `Engine:` key nothing asked for. Keys read after
 * `assertKnownKeys` ran are not checked.
 */
export class ConfigurationStore implements ConfigurationReader {
  private readonly leaves = new Map<string, Leaf>();
  /** Keys given as code options to `bind`, checked with the configured ones. */
  private readonly codeKeys = new Map<string, Leaf>();
  /** Under DependencyHealth, the probe kinds (PostgreSql, Http...) are suggested even when not registered. */
  private readonly known = new KnownKeys(
    (parent) => (parent === dependencyHealthPath ? Object.keys(probeEventIds) : []),
    unregisteredProbeSection,
  );
  private readonly onSecret?: (value: string) => void;
  private readonly environment: Readonly<Record<string, string | undefined>>;
  readonly environmentName: string | undefined;

  constructor(sources: ConfigurationSources) {
    this.onSecret = sources.onSecret;
    this.environment = sources.environment;
    this.environmentName = sources.environmentName || undefined;
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

  /** One environment variable from the environment this store read (the builder's, process.env by default). */
  environmentVariable(name: string): string | undefined {
    return this.environment[name];
  }

  /** The raw value or subtree at a key path. Reading marks the path and everything below it as known. */
  get(keyPath: string): unknown {
    this.known.record(keyPath, anyChild);
    const leaf = this.leaves.get(keyPath.toLowerCase());
    if (leaf) return leaf.value;
    return this.section(keyPath);
  }

  /**
   * The subtree at a key path. Marks the path itself as known but not its children: read a section to list
   * its child names, then `bind` each child (as `Engine:Rest:Profiles` does).
   */
  getSection(keyPath: string): unknown {
    this.known.record(keyPath, nodeOnly);
    return this.section(keyPath);
  }

  /** The source that supplied a key path, for diagnostics; undefined when no source sets it. */
  sourceOf(keyPath: string): string | undefined {
    return this.leaves.get(keyPath.toLowerCase())?.source;
  }

  /**
   * Binds the section at `keyPath`: merges `codeOptions` over it (code wins per field; arrays of objects
   * with an `Id` are merged by Id, new Ids appended), coerces strings, validates against `schema`, records
   * the keys the schema knows and hands every `secretString()` value to `onSecret`.
   */
  bind<T>(keyPath: string, schema: ZodType<T>, codeOptions?: unknown): T {
    this.known.record(keyPath, schema);
    let raw = this.section(keyPath);
    if (codeOptions !== undefined) {
      flatten(codeOptions, keyPath, 'code', this.codeKeys);
      raw = mergeOptions(raw, codeOptions);
    }
    const value = bindValue(keyPath, schema, raw ?? {});
    if (this.onSecret) for (const secret of secretValues(schema, value)) this.onSecret(secret);
    return value;
  }

  /**
   * Throws CONFIGURATION_INVALID listing every key under `Engine:` (from files, `Engine__` environment
   * variables, or code) that no `bind` schema or `get` covered, each with the closest known key. Call it once
   * every registration has bound its section; other prefixes (`Logging__...`) are not checked.
   */
  assertKnownKeys(): void {
    const problems = this.known.unknownKeys([...this.leaves.values(), ...this.codeKeys.values()]);
    if (problems.length === 0) return;
    throw new CoreError('CONFIGURATION_INVALID', `Unknown configuration keys:\n- ${problems.join('\n- ')}`, {
      problems,
    });
  }

  private section(keyPath: string): unknown {
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

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Code options over configured values: code wins per field, keys matched case-insensitively. */
function mergeOptions(base: unknown, overlay: unknown): unknown {
  if (overlay === undefined) return base;
  if (Array.isArray(overlay)) return mergeList(base, overlay);
  if (!isPlain(overlay)) return overlay;
  const result: Plain = isPlain(base) && !isIndexed(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(overlay)) {
    if (value === undefined) continue;
    const existing = findKey(result, key);
    const merged = mergeOptions(existing ? result[existing] : undefined, value);
    if (existing) delete result[existing];
    result[key] = merged;
  }
  return result;
}

function isIndexed(value: Plain): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => /^\d+$/.test(key));
}

function idOf(entry: unknown): unknown {
  if (!isPlain(entry)) return undefined;
  const key = findKey(entry, 'Id');
  return key === undefined ? undefined : entry[key];
}

/**
 * Lists whose entries carry an `Id` (probe dependencies, sender lists) merge by Id: a code entry overrides
 * the configured entry with its Id (each configured entry once, so two code entries with one Id stay two
 * and fail validation as duplicates); other code entries are appended. Lists without Ids are replaced.
 */
function mergeList(base: unknown, overlay: readonly unknown[]): unknown {
  const configured = Array.isArray(base) ? base : isPlain(base) && isIndexed(base) ? Object.values(base) : [];
  if (![...configured, ...overlay].some((entry) => idOf(entry) !== undefined)) return overlay;
  const merged = [...configured];
  const overridden = new Set<number>();
  for (const entry of overlay) {
    const id = idOf(entry);
    const index =
      id === undefined
        ? -1
        : merged.findIndex(
            (existing, position) =>
              position < configured.length && !overridden.has(position) && idOf(existing) === id,
          );
    if (index < 0) {
      merged.push(entry);
      continue;
    }
    overridden.add(index);
    merged[index] = mergeOptions(merged[index], entry);
  }
  return merged;
}
