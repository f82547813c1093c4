import type { ConsoleAssets } from './console-assets';

/**
 * The console's Content-Security-Policy: scripts, styles and connections from this origin only; no inline
 * script or style, no eval, no frames, no forms, no base-URI games. Every console answer carries it.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every console answer. */
export const consoleSecurityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': consoleContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** Hashed assets never change under their name: cache them for a year without revalidation. */
export const immutableCacheControl = 'public, max-age=31536000, immutable';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The page at `/engine/console`. Every URL in it is relative (`console/assets/...`), and the app reads the
 * JSON routes relative to the page (`dependencies` is `/engine/dependencies`), so the console works unchanged
 * behind a proxy that serves the host under a sub-path. Views are addressed by the fragment
 * (`/engine/console#/dependencies/inventory-api`), so a deep link reloads the same page.
 */
export function consolePage(assets: ConsoleAssets, title: string): string {
  const safeTitle = escapeHtml(title);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${safeTitle}</title>`,
    `<link rel="stylesheet" href="console/assets/${assets.stylesheet}">`,
    `<script type="module" src="console/assets/${assets.script}"></script>`,
    '</head>',
    `<body><div id="app" data-title="${safeTitle}"><p>Loading the console…</p></div></body>`,
    '</html>',
    '',
  ].join('\n');
}
