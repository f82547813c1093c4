import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDuration } from '@corekit/abstractions';

/** The deployment choices of a generated host (deploy.json): what engine.json cannot say. */
export interface DeploySettings {
  /** Service, image, unit and namespace name. */
  readonly name: string;
  readonly host: 'web' | 'worker';
  /** The HTTP port the host listens on (the health port of a worker host). */
  readonly port: number;
  readonly targets: readonly string[];
  readonly image: string;
  readonly namespace: string;
  readonly replicas: number;
  /** Kubernetes and container-app resource requests. */
  readonly resources: { readonly cpu: string; readonly memory: string };
  /** Where the systemd unit expects the built host. */
  readonly installDirectory: string;
  /** The Node.js major version of the container image. */
  readonly nodeMajor: number;
}

type Json = Record<string, unknown>;

/** Merges `over` into `base`, matching keys case-insensitively as the engine does. */
function mergeInsensitive(base: Json, over: Json): Json {
  const result: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const existing = Object.keys(result).find((candidate) => candidate.toLowerCase() === key.toLowerCase());
    const previous = existing === undefined ? undefined : result[existing];
    if (existing !== undefined) delete result[existing];
    result[key] =
      value && typeof value === 'object' && !Array.isArray(value) && previous && typeof previous === 'object'
        ? mergeInsensitive(previous as Json, value as Json)
        : value;
  }
  return result;
}

/** engine.json overlaid with engine.production.json: the configuration a deployed host reads. */
export function readEngineConfiguration(directory: string, environment = 'production'): Json {
  const read = (file: string): Json =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Json) : {};
  return mergeInsensitive(
    read(path.join(directory, 'engine.json')),
    read(path.join(directory, `engine.${environment}.json`)),
  );
}

/** The value at a `A:B:C` key path, keys compared case-insensitively. */
export function valueAt(configuration: unknown, keyPath: string): unknown {
  let value: unknown = configuration;
  for (const part of keyPath.split(':')) {
    if (!value || typeof value !== 'object') return undefined;
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item])
      : Object.entries(value);
    value = entries.find(([key]) => String(key).toLowerCase() === part.toLowerCase())?.[1];
  }
  return value;
}

/** A configured duration in whole seconds (rounded up), or the default when the key is absent. */
export function durationSeconds(configuration: Json, keyPath: string, fallbackSeconds: number): number {
  const raw = valueAt(configuration, keyPath);
  if (raw === undefined) return fallbackSeconds;
  const milliseconds = typeof raw === 'string' ? parseDuration(raw) : undefined;
  if (milliseconds === undefined) throw new Error(`${keyPath}: "${String(raw)}" is not a duration`);
  return Math.ceil(milliseconds / 1000);
}

/** A configured positive number (numbers may be strings, as environment values are), or the default. */
export function numberAt(configuration: unknown, keyPath: string, fallback: number): number {
  const raw = valueAt(configuration, keyPath);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${keyPath}: "${String(raw)}" is not a positive number`);
  return value;
}

/** Reads deploy.json of a generated host. */
export function readDeploySettings(directory: string): DeploySettings {
  const file = path.join(directory, 'deploy.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: is ${directory} a generated host?`);
  return JSON.parse(readFileSync(file, 'utf8')) as DeploySettings;
}
