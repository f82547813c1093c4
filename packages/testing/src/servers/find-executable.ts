import { accessSync, constants, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The full path of the first of `names` found in `PATH` or in `extraDirectories` (searched after PATH:
 * `/usr/sbin` and versioned directories such as `/usr/lib/postgresql/15/bin` are often not on PATH), or
 * undefined.
 */
export function findExecutable(
  names: readonly string[],
  extraDirectories: readonly string[] = [],
): string | undefined {
  const directories = [
    ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean),
    ...extraDirectories,
  ];
  for (const name of names) {
    for (const directory of directories) {
      const candidate = path.join(directory, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Subdirectories `<parent>/<version>/<leaf>` ordered from the highest numeric version down (`/usr/lib/postgresql/16/bin`). */
export function versionedDirectories(parent: string, leaf: string): string[] {
  try {
    return readdirSync(parent)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a))
      .map((name) => path.join(parent, name, leaf));
  } catch {
    return [];
  }
}
