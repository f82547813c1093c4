// Jest global setup: build the browser bundle once when `pnpm build` has not (turbo's test task builds first).
const { existsSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

module.exports = function buildAssets() {
  const root = path.resolve(__dirname, '..', '..');
  if (existsSync(path.join(root, 'dist', 'ui', 'manifest.json'))) return;
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-ui.mjs')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('building the console assets failed');
};
