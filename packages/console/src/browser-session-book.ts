import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  errorCode,
  OperationError,
  storeErrorCodes,
  type BrowserSessionAuthority,
  type BrowserSessionPrincipal,
  type KeyedStore,
  type OperationPrincipal,
  type ResolvedBrowserSession,
} from '@corekit/abstractions';

/** One stored session, keyed by the SHA-256 of its id: the store never holds an id a browser could present. */
export interface BrowserSessionRecord {
  readonly subject: string | null;
  readonly claims: Readonly<Record<string, unknown>>;
  readonly signedInAtUtc: string;
  /** Epoch milliseconds: the session ends then, used or not (the lifetime). */
  readonly expiresAtMs: number;
  /** Epoch milliseconds of the last request seen with it (renewed at most every `touchEveryMs`). */
  readonly lastSeenAtMs: number;
}

export interface BrowserSessionBookOptions {
  /** Longest life of a session, from sign-in. */
  readonly lifetimeMs: number;
  /** A session unused this long ends. */
  readonly idleMs: number;
  /** `Secure` cookie (and the `__Host-` name prefix that requires it). */
  readonly secureCookie: boolean;
  /** Absolute path of the sign-in page. */
  readonly loginPath: string;
  /** Epoch milliseconds now (tests pass a manual clock). Default `Date.now`. */
  readonly now?: () => number;
}

/** A session just opened: the id (for the cookie, never logged), its CSRF token and when it ends. */
export interface OpenedBrowserSession {
  readonly id: string;
  readonly csrfToken: string;
  readonly expiresAtUtc: string;
  readonly principal: BrowserSessionPrincipal;
}

/** The header a change made with the session carries the CSRF token in. */
export const csrfHeaderName = 'x-csrf-token';

/** 32 random bytes, base64url: 43 characters. Anything else is not a session id and is never looked up. */
const sessionIdPattern = /^[A-Za-z0-9_-]{43}$/;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The console's browser sessions on the engine's store (`console-browser-sessions`), so replicas sharing a store
 * honour each other's sessions and a durable store keeps them across a restart. A session lives at most
 * `lifetimeMs` and ends after `idleMs` without a request; the record expires with it (store TTL), and sign-out
 * deletes it. The CSRF token is derived from the id (a hash), so it is never stored either.
 */
export class BrowserSessionBook implements BrowserSessionAuthority {
  readonly csrfHeaderName = csrfHeaderName;
  readonly cookieName: string;
  readonly loginPath: string;
  private readonly now: () => number;

  constructor(
    private readonly store: KeyedStore<BrowserSessionRecord>,
    private readonly options: BrowserSessionBookOptions,
  ) {
    this.cookieName = options.secureCookie ? '__Host-corekit-console' : 'corekit-console';
    this.loginPath = options.loginPath;
    this.now = options.now ?? Date.now;
  }

  /** Renew the idle deadline at most this often (a store write per request would be too many). */
  private get touchEveryMs(): number {
    return Math.min(60_000, Math.max(1_000, Math.floor(this.options.idleMs / 4)));
  }

  /** The session's CSRF token: a hash of its id, so knowing it tells nothing about the id. */
  csrfTokenOf(sessionId: string): string {
    return digest(`corekit-console-csrf:${sessionId}`);
  }

  /** True when `given` is the CSRF token of the session (constant time). */
  csrfTokenMatches(sessionId: string, given: string | undefined): boolean {
    if (!given) return false;
    const expected = Buffer.from(this.csrfTokenOf(sessionId));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** Opens a session for the principal the authorize hook granted. */
  async open(principal: OperationPrincipal): Promise<OpenedBrowserSession> {
    const id = randomBytes(32).toString('base64url');
    const now = this.now();
    const record: BrowserSessionRecord = {
      subject: principal.subject,
      claims: principal.claims,
      signedInAtUtc: new Date(now).toISOString(),
      expiresAtMs: now + this.options.lifetimeMs,
      lastSeenAtMs: now,
    };
    try {
      await this.store.put(digest(id), record, { expectedVersion: 0, ttlMs: this.ttl(record, now) });
    } catch (error) {
      if (errorCode(error) !== storeErrorCodes.full) throw error;
      throw new OperationError(
        'unavailable',
        'CONSOLE_SESSIONS_FULL',
        'Too many live console sessions (Engine:Console:Login:MaxSessions); try again once some have ended',
      );
    }
    return {
      id,
      csrfToken: this.csrfTokenOf(id),
      expiresAtUtc: new Date(record.expiresAtMs).toISOString(),
      principal: principalOf(record),
    };
  }

  async resolve(sessionId: string): Promise<ResolvedBrowserSession | null> {
    if (!sessionIdPattern.test(sessionId)) return null;
    const key = digest(sessionId);
    const stored = await this.store.get(key);
    if (!stored) return null;
    const now = this.now();
    const record = stored.value;
    if (now >= record.expiresAtMs || now - record.lastSeenAtMs >= this.options.idleMs) {
      await this.store.delete(key, { expectedVersion: stored.version });
      return null;
    }
    if (now - record.lastSeenAtMs >= this.touchEveryMs) {
      const touched = { ...record, lastSeenAtMs: now };
      // Compare-and-set: a concurrent renewal (or a sign-out) wins; this request is valid either way.
      await this.store.put(key, touched, { expectedVersion: stored.version, ttlMs: this.ttl(touched, now) });
    }
    return { principal: principalOf(record), csrfToken: this.csrfTokenOf(sessionId) };
  }

  /** Ends the session (sign-out). True when there was one. */
  async revoke(sessionId: string): Promise<boolean> {
    if (!sessionIdPattern.test(sessionId)) return false;
    return this.store.delete(digest(sessionId));
  }

  /** The `Set-Cookie` value carrying a new session. */
  cookie(sessionId: string): string {
    return sessionCookie(this.cookieName, sessionId, {
      secure: this.options.secureCookie,
      maxAgeSeconds: Math.floor(this.options.lifetimeMs / 1000),
    });
  }

  /** The `Set-Cookie` value that makes the browser forget the session. */
  clearingCookie(): string {
    return sessionCookie(this.cookieName, '', { secure: this.options.secureCookie, maxAgeSeconds: 0 });
  }

  /** The record lives until the earlier of its end and its idle deadline (renewals push the latter). */
  private ttl(record: BrowserSessionRecord, now: number): number {
    return Math.max(1, Math.min(record.expiresAtMs - now, this.options.idleMs));
  }
}

function principalOf(record: BrowserSessionRecord): BrowserSessionPrincipal {
  return { subject: record.subject, claims: record.claims, signedInAtUtc: record.signedInAtUtc };
}

/**
 * A session cookie: `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page sends it),
 * `Path=/` (a proxy's sub-path included), `Secure` unless turned off (browsers keep a Secure cookie over https,
 * and over plain http on `localhost` and `127.0.0.1` only).
 */
export function sessionCookie(
  name: string,
  value: string,
  options: { readonly secure: boolean; readonly maxAgeSeconds: number },
): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
