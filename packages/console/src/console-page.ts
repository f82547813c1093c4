import type { ConsoleAssets } from './console-assets';
import { initialReads } from './initial-reads';

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

/** The headers of a page holding a form that posts to this origin (the sign-out form of a session). */
export function securityHeadersWithForms(): Record<string, string> {
  return {
    ...consoleSecurityHeaders,
    'Content-Security-Policy': consoleContentSecurityPolicy.replace(
      "form-action 'none'",
      "form-action 'self'",
    ),
  };
}

/** The signed-in operator, when the page is opened with a browser session. */
export interface ConsolePageSession {
  readonly subject: string | null;
  /** The session's CSRF token: the page's script sends it with every change (`X-CSRF-Token`). */
  readonly csrfToken: string;
}

/**
 * The bar above the app of a page opened with a session: who is signed in, the operator audit, and a sign-out
 * form (a plain post carrying the CSRF token, so it works without the script).
 */
function sessionBar(session: ConsolePageSession): string {
  const who = session.subject ? `<strong>${escapeHtml(session.subject)}</strong>` : 'an operator';
  return [
    '<div class="session-bar">',
    `<span>Signed in as ${who}</span>`,
    '<a href="#/catalogs/operator-audit">Operator audit</a>',
    '<form method="post" action="console/logout">',
    `<input type="hidden" name="csrf" value="${escapeHtml(session.csrfToken)}">`,
    '<button type="submit">Sign out</button>',
    '</form>',
    '</div>',
  ].join('');
}

/** Hashed assets never change under their name: cache them for a year without revalidation. */
export const immutableCacheControl = 'public, max-age=31536000, immutable';

/** Text safe inside HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The page at `/engine/console`. Every URL in it is relative (`console/assets/...`), and the app reads the
 * JSON routes relative to the page (`dependencies` is `/engine/dependencies`), so the console works unchanged
 * behind a proxy that serves the host under a sub-path. Views are addressed by the fragment
 * (`/engine/console#/dependencies/inventory-api`), so a deep link reloads the same page.
 */
export function consolePage(assets: ConsoleAssets, title: string, session?: ConsolePageSession): string {
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
    ...(session
      ? [
          `<meta name="csrf-token" content="${escapeHtml(session.csrfToken)}">`,
          '<link rel="stylesheet" href="console/sign-in.css">',
        ]
      : []),
    // The script first: a browser opens at most six connections to a host over HTTP/1.1, and a script queued
    // behind the reads waited for one of them (4.5 s at 4x throttling behind the history strips).
    `<script type="module" src="console/assets/${assets.script}"></script>`,
    // The first reads start with the page, not after the script ran (the first render of 1,000 checks waited
    // on them); `crossorigin` gives them the credentials mode of the script's same-origin fetch, so they match.
    ...Object.values(initialReads).map(
      (read) => `<link rel="preload" href="${escapeHtml(read)}" as="fetch" crossorigin="anonymous">`,
    ),
    '</head>',
    `<body>${session ? sessionBar(session) : ''}<div id="app" data-title="${safeTitle}"><p>Loading the console…</p></div></body>`,
    '</html>',
    '',
  ].join('\n');
}
