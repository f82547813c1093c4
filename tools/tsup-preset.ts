// The one tsup preset every package builds with. Switching bundlers means changing this file only.
import { defineConfig, type Options } from 'tsup';

export function packageBuild(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: false,
    // No rollup tree-shaking pass: each bundle holds one package's own sources (dependencies stay external), and
    // consumers' bundlers drop what they do not use (`sideEffects: false`); the pass doubled the JavaScript build.
    treeshake: false,
    ...overrides,
  });
}
