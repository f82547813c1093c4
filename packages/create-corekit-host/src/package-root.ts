import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This package's folder (where templates/ and data/ live), found from the running file whether it runs from
 * src/ (tests), dist/ (built, ESM or CJS) or an installed copy under node_modules.
 */
export function packageRoot(): string {
  let directory = typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(directory, 'templates')) || !existsSync(path.join(directory, 'data'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error('create-corekit-host: templates/ and data/ not found');
    directory = parent;
  }
  return directory;
}
