// Builds the console's browser bundle at package build time: one ES module and one stylesheet, minified,
// with content-hashed names (served with immutable caching), each also precompressed (.br, .gz), plus
// dist/ui/manifest.json naming them.
// Nothing is fetched at run time; the page loads only these two files. `--if-missing` skips an existing build.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputRoot = path.join(packageRoot, 'dist', 'ui');
const assetsDirectory = path.join(outputRoot, 'assets');

// `--if-missing`: keep assets already built (the sample host's `pnpm demo` runs from sources on a fresh clone).
if (process.argv.includes('--if-missing') && existsSync(path.join(outputRoot, 'manifest.json')))
  process.exit(0);

await rm(outputRoot, { recursive: true, force: true });
await mkdir(assetsDirectory, { recursive: true });

const result = await build({
  entryPoints: { console: path.join(packageRoot, 'src', 'ui', 'main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  // uPlot (the detail's chart) is a chunk of its own, imported with the first chart, not parsed with the page.
  splitting: true,
  chunkNames: '[name]-[hash]',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  outdir: assetsDirectory,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const files = Object.keys(result.metafile.outputs).map((output) => path.basename(output));
const script = files.find((file) => file.startsWith('console-') && file.endsWith('.js'));
const stylesheets = files.filter((file) => file.endsWith('.css'));
if (!script || stylesheets.length !== 1)
  throw new Error(`console build produced ${files.join(', ')}: expected one entry .js and one .css`);
const [stylesheet] = stylesheets;
// Precompressed beside each file (brotli at its best quality, gzip level 9): the host serves the one the browser
// accepts (Accept-Encoding) and never compresses at run time.
for (const file of files) {
  const content = await readFile(path.join(assetsDirectory, file));
  await writeFile(
    path.join(assetsDirectory, `${file}.br`),
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(path.join(assetsDirectory, `${file}.gz`), gzipSync(content, { level: 9 }));
}
await writeFile(
  path.join(outputRoot, 'manifest.json'),
  `${JSON.stringify({ script, stylesheet, files }, null, 2)}\n`,
);
process.stdout.write(`console assets: ${files.join(', ')}\n`);
