// Every URL is relative to the page (/engine/console), so `dependencies` is /engine/dependencies, also behind a
// proxy that serves the host under a sub-path. Nothing is fetched from another host.

/** A JSON route relative to the page, for links and fetches. */
export function routeUrl(relative: string): string {
  return relative;
}

/** The absolute path a relative route resolves to, as shown to people. */
export function shownUrl(relative: string): string {
  return new URL(relative, document.baseURI).pathname;
}

/** Relative form of an absolute `/engine/...` path the server handed out (a catalog's route). */
export function relativeEnginePath(enginePath: string): string {
  return enginePath.replace(/^\/engine\//, '');
}

export class RequestFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The browser session's CSRF token (the page holds it when opened with a session), sent with every change. */
const csrfToken =
  typeof document === 'undefined'
    ? null
    : (document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? null);

export async function getJson<T>(relative: string, init: RequestInit = {}): Promise<T> {
  const csrf: Record<string, string> =
    csrfToken && init.method && init.method !== 'GET' ? { 'X-CSRF-Token': csrfToken } : {};
  const response = await fetch(routeUrl(relative), {
    ...init,
    headers: { Accept: 'application/json', ...csrf, ...((init.headers ?? {}) as Record<string, string>) },
    credentials: 'same-origin',
  });
  // The session ended (idle, lifetime, signed out elsewhere): back to the sign-in page.
  if (response.status === 401 && csrfToken) window.location.assign('console/login?ended');
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const problem = body as { detail?: string; code?: string } | null;
    throw new RequestFailed(
      response.status,
      `${response.status} ${problem?.code ?? response.statusText}${problem?.detail ? `: ${problem.detail}` : ''}`,
    );
  }
  return body as T;
}

export function postJson<T>(relative: string, body: unknown): Promise<T> {
  return getJson<T>(relative, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
  });
}
