import { escapeHtml } from './console-page';

/**
 * The sign-in page's Content-Security-Policy: the console's, except that its one form may post to this origin
 * (`form-action 'self'`). No script at all: the page works with JavaScript off.
 */
export const signInContentSecurityPolicy = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** What the sign-in page says besides the form. */
export interface SignInPageState {
  readonly title: string;
  /** Why the last attempt failed, announced (role="alert") and tied to the field; null on a first visit. */
  readonly error: string | null;
  /** A note above the form (signed out, the session ended), announced politely. */
  readonly notice: string | null;
  /**
   * Over plain http to a host other than localhost a browser drops the `Secure` session cookie: say so,
   * since a sign-in would otherwise seem to do nothing.
   */
  readonly insecureTransport: boolean;
}

/**
 * The sign-in page at `/engine/console/login`: one labelled field for the operator's credential (the token an
 * API client sends as `Authorization: Bearer`), posted as a plain HTML form to the same address; no script.
 * Behind an authenticating proxy the field may stay empty: the proxy's headers travel with the post and the
 * host's authorize hook reads them.
 */
export function signInPage(state: SignInPageState): string {
  const title = escapeHtml(state.title);
  const error = state.error ? escapeHtml(state.error) : null;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${error ? 'Sign-in failed: ' : 'Sign in: '}${title}</title>`,
    '<link rel="stylesheet" href="sign-in.css">',
    '</head>',
    '<body class="sign-in">',
    '<main aria-labelledby="sign-in-heading">',
    `<h1 id="sign-in-heading">Sign in to ${title}</h1>`,
    state.notice ? `<p class="notice" role="status">${escapeHtml(state.notice)}</p>` : '',
    state.insecureTransport
      ? '<p class="warning">This page came over plain http to a host other than localhost: your browser will not keep the session cookie (it is <code>Secure</code>). Open the console over https.</p>'
      : '',
    error ? `<p class="error" id="sign-in-error" role="alert">${error}</p>` : '',
    '<form method="post" action="login">',
    '<label for="credential">Operator token</label>',
    '<p class="hint" id="credential-hint">The token your host accepts as <code>Authorization: Bearer</code>. Behind a sign-in proxy, leave it empty.</p>',
    `<input id="credential" name="credential" type="password" autocomplete="current-password" spellcheck="false" aria-describedby="${error ? 'sign-in-error ' : ''}credential-hint"${error ? ' aria-invalid="true" autofocus' : ''}>`,
    '<button type="submit">Sign in</button>',
    '</form>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Styles of the sign-in page and of the console's session bar (who is signed in, the audit link, sign-out):
 * served anonymously at `/engine/console/sign-in.css`, since the sign-in page is seen before any session.
 * Colour pairs pass WCAG AA in both schemes.
 */
export const signInStylesheet = `
.sign-in, .session-bar { color-scheme: light dark; --si-text: #1b1f24; --si-muted: #4d5560; --si-surface: #ffffff; --si-line: #8a929c;
  --si-accent: #0b57d0; --si-accent-text: #ffffff; --si-error: #a4141c; --si-warning-bg: #fff4d6; --si-warning-text: #5c4200; }
@media (prefers-color-scheme: dark) {
  .sign-in, .session-bar { --si-text: #e8eaed; --si-muted: #b8bec6; --si-surface: #16181c; --si-line: #8a929c; --si-accent: #8ab4f8;
    --si-accent-text: #0b1a33; --si-error: #ffb3b0; --si-warning-bg: #3d3000; --si-warning-text: #ffe08a; }
}
body.sign-in { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--si-surface);
  color: var(--si-text); font: 16px/1.5 system-ui, sans-serif; }
.sign-in main { width: min(26rem, 92vw); padding: 2rem 1.5rem; }
.sign-in h1 { font-size: 1.5rem; margin: 0 0 1rem; }
.sign-in label { display: block; font-weight: 600; }
.sign-in .hint { color: var(--si-muted); margin: 0.25rem 0 0.5rem; font-size: 0.9rem; }
.sign-in input { box-sizing: border-box; width: 100%; padding: 0.5rem; font: inherit; color: var(--si-text);
  background: var(--si-surface); border: 1px solid var(--si-line); border-radius: 4px; }
.sign-in input[aria-invalid="true"] { border-color: var(--si-error); border-width: 2px; }
.sign-in button, .session-bar button { margin-top: 1rem; padding: 0.5rem 1.25rem; font: inherit; font-weight: 600;
  color: var(--si-accent-text); background: var(--si-accent); border: 0; border-radius: 4px; cursor: pointer; }
.sign-in .error { color: var(--si-error); font-weight: 600; }
.sign-in .warning { background: var(--si-warning-bg); color: var(--si-warning-text); padding: 0.5rem; }
.sign-in :focus-visible, .session-bar :focus-visible { outline: 3px solid var(--si-accent); outline-offset: 2px; }
.session-bar { display: flex; gap: 1rem; align-items: center; justify-content: flex-end; padding: 0.25rem 1rem;
  font: 14px/1.4 system-ui, sans-serif; color: var(--si-text); background: var(--si-surface); }
.session-bar a { color: var(--si-accent); }
.session-bar button { margin: 0; padding: 0.2rem 0.75rem; }
`;
