import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreError } from '@corekit/abstractions';

/** One built asset: its hashed file name, content type and text, and its precompressed forms when built. */
export interface ConsoleAsset {
  readonly fileName: string;
  readonly contentType: string;
  readonly text: string;
  /** Brotli and gzip forms written at build time (`<file>.br`, `<file>.gz`); absent ones are served plain. */
  readonly encoded?: Readonly<Partial<Record<ContentEncoding, Buffer>>>;
}

/** The encodings the console ships its assets in, best first. */
export type ContentEncoding = 'br' | 'gzip';

const encodingSuffixes: ReadonlyArray<readonly [ContentEncoding, string]> = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/**
 * The encoding to answer with for an `Accept-Encoding` header: brotli, then gzip, among those the asset has and
 * the client accepts (`q=0` refuses one); null for the plain file.
 */
export function negotiateEncoding(
  acceptEncoding: string | undefined,
  available: Readonly<Partial<Record<ContentEncoding, Buffer>>> | undefined,
): ContentEncoding | null {
  if (!acceptEncoding || !available) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  for (const [encoding] of encodingSuffixes) {
    if (available[encoding] && weight(encoding) > 0) return encoding;
  }
  return null;
}

/** The built browser bundle: the entry script, the stylesheet, and every file by name. */
export interface ConsoleAssets {
  readonly script: string;
  readonly stylesheet: string;
  readonly files: ReadonlyMap<string, ConsoleAsset>;
}

/** What the build script writes next to the assets (`dist/ui/manifest.json`). */
interface AssetManifest {
  readonly script: string;
  readonly stylesheet: string;
  readonly files: readonly string[];
}

const contentTypes: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function moduleDirectory(): string {
  return typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
}

/**
 * The folders the built assets may be in: `ui` beside the bundled module (`dist/ui`, the published layout),
 * or `../dist/ui` when the sources run directly (tests resolve workspace packages to `src`).
 */
export function assetDirectoryCandidates(from = moduleDirectory()): string[] {
  return [path.join(from, 'ui'), path.join(from, '..', 'dist', 'ui')];
}

/**
 * Reads the assets built at package build time (`scripts/build-ui.mjs`). Missing assets are a startup error
 * naming the folder looked in: the console never fetches anything at run time.
 */
export function loadConsoleAssets(directories = assetDirectoryCandidates()): ConsoleAssets {
  const directory = directories.find((candidate) => existsSync(path.join(candidate, 'manifest.json')));
  if (!directory) {
    throw new CoreError(
      'CONSOLE_ASSETS_MISSING',
      `The console's browser assets were not found (looked in ${directories.join(', ')}). Build @corekit/console (pnpm build) before starting a host with it.`,
    );
  }
  const manifest = JSON.parse(readFileSync(path.join(directory, 'manifest.json'), 'utf8')) as AssetManifest;
  const files = new Map<string, ConsoleAsset>();
  for (const fileName of manifest.files) {
    const contentType = contentTypes[path.extname(fileName)] ?? 'application/octet-stream';
    const file = path.join(directory, 'assets', fileName);
    const encoded: Partial<Record<ContentEncoding, Buffer>> = {};
    for (const [encoding, suffix] of encodingSuffixes) {
      if (existsSync(`${file}${suffix}`)) encoded[encoding] = readFileSync(`${file}${suffix}`);
    }
    files.set(fileName, { fileName, contentType, text: readFileSync(file, 'utf8'), encoded });
  }
  return { script: manifest.script, stylesheet: manifest.stylesheet, files };
}
