import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreError } from '@corekit/abstractions';

/** One built asset: its hashed file name, content type and text. */
export interface ConsoleAsset {
  readonly fileName: string;
  readonly contentType: string;
  readonly text: string;
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
    files.set(fileName, {
      fileName,
      contentType,
      text: readFileSync(path.join(directory, 'assets', fileName), 'utf8'),
    });
  }
  return { script: manifest.script, stylesheet: manifest.stylesheet, files };
}
