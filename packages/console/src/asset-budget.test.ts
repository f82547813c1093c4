import { gzipSync } from 'node:zlib';
import { loadConsoleAssets } from './console-assets';

/** The README's budget: what a cold load transfers, compressed. */
const budgetBytes = 150 * 1024;

describe('asset budget', () => {
  it('the page loads one script and one stylesheet whose gzip size together stays within 150 KB', () => {
    const assets = loadConsoleAssets();
    const loaded = [assets.script, assets.stylesheet].map((name) => assets.files.get(name)!);
    expect(loaded.every(Boolean)).toBe(true);
    const compressed = loaded.reduce((sum, asset) => sum + gzipSync(asset.text, { level: 9 }).length, 0);
    expect(compressed).toBeLessThanOrEqual(budgetBytes);
    expect(assets.script).toMatch(/^console-[A-Z0-9]{8}\.js$/);
    expect(assets.stylesheet).toMatch(/^console-[A-Z0-9]{8}\.css$/);
  });

  it('the bundle holds no eval, no Function constructor and no address of another host to load from', () => {
    const assets = loadConsoleAssets();
    const script = assets.files.get(assets.script)!.text;
    expect(script).not.toMatch(/\beval\(/);
    expect(script).not.toMatch(/new Function\(/);
    expect(script).not.toMatch(/(?:fetch|EventSource|WebSocket|import)\(\s*["'`]https?:/);
  });
});
