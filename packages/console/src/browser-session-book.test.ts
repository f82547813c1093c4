import { manualClock, MemoryStoreProvider } from '@corekit/engine-core';
import { BrowserSessionBook, sessionCookie, type BrowserSessionRecord } from './browser-session-book';

const minute = 60_000;

function book(options: { secureCookie?: boolean } = {}) {
  const clock = manualClock();
  const store = new MemoryStoreProvider({ clock }).open<BrowserSessionRecord>('sessions');
  const sessions = new BrowserSessionBook(store, {
    lifetimeMs: 60 * minute,
    idleMs: 10 * minute,
    secureCookie: options.secureCookie ?? true,
    loginPath: '/engine/console/login',
    now: clock.now,
  });
  return { clock, store, sessions };
}

const operator = { subject: 'operator', policy: 'console.sign-in', claims: { role: 'ops' } };

describe('browser sessions on the store contract', () => {
  it('resolves a session to the principal the hook granted, with its CSRF token; the store holds neither id nor token', async () => {
    const { store, sessions } = book();
    const opened = await sessions.open(operator);
    expect(opened.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const resolved = await sessions.resolve(opened.id);
    expect(resolved?.principal).toEqual({
      subject: 'operator',
      claims: { role: 'ops' },
      signedInAtUtc: '2026-01-01T00:00:00.000Z',
    });
    expect(resolved?.csrfToken).toBe(opened.csrfToken);
    expect(opened.csrfToken).not.toBe(opened.id);
    const stored = JSON.stringify(await store.list());
    expect(stored).not.toContain(opened.id);
    expect(stored).not.toContain(opened.csrfToken);
    expect(await sessions.resolve('not-a-session-id')).toBeNull();
    expect(await sessions.resolve('A'.repeat(43))).toBeNull();
  });

  it('ends a session unused for the idle timeout, and renews the idle deadline on use', async () => {
    const { clock, sessions } = book();
    const opened = await sessions.open(operator);
    clock.advance(9 * minute);
    expect(await sessions.resolve(opened.id)).not.toBeNull();
    clock.advance(9 * minute); // 18 min after sign-in, 9 after the last use
    expect(await sessions.resolve(opened.id)).not.toBeNull();
    clock.advance(10 * minute);
    expect(await sessions.resolve(opened.id)).toBeNull();
  });

  it('ends a session at the end of its lifetime however often it is used', async () => {
    const { clock, sessions } = book();
    const opened = await sessions.open(operator);
    for (let elapsed = 0; elapsed < 55; elapsed += 5) {
      clock.advance(5 * minute);
      expect(await sessions.resolve(opened.id)).not.toBeNull();
    }
    clock.advance(5 * minute);
    expect(await sessions.resolve(opened.id)).toBeNull();
  });

  it('revokes a session on sign-out; another session stays', async () => {
    const { sessions } = book();
    const first = await sessions.open(operator);
    const second = await sessions.open(operator);
    expect(await sessions.revoke(first.id)).toBe(true);
    expect(await sessions.resolve(first.id)).toBeNull();
    expect(await sessions.resolve(second.id)).not.toBeNull();
    expect(await sessions.revoke(first.id)).toBe(false);
  });

  it('accepts only the CSRF token of the same session', async () => {
    const { sessions } = book();
    const first = await sessions.open(operator);
    const second = await sessions.open(operator);
    expect(sessions.csrfTokenMatches(first.id, first.csrfToken)).toBe(true);
    expect(sessions.csrfTokenMatches(first.id, second.csrfToken)).toBe(false);
    expect(sessions.csrfTokenMatches(first.id, undefined)).toBe(false);
    expect(sessions.csrfTokenMatches(first.id, first.csrfToken.slice(1))).toBe(false);
  });
});

describe('session cookie attributes', () => {
  it('is HttpOnly, SameSite=Strict, Secure and __Host- prefixed, for the whole origin, living the session lifetime', async () => {
    const { sessions } = book();
    const opened = await sessions.open(operator);
    expect(sessions.cookieName).toBe('__Host-corekit-console');
    expect(sessions.cookie(opened.id)).toBe(
      `__Host-corekit-console=${opened.id}; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict; Secure`,
    );
    expect(sessions.clearingCookie()).toBe(
      '__Host-corekit-console=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
    );
  });

  it('without Secure (plain http on another host) drops the __Host- prefix, which requires it', () => {
    const { sessions } = book({ secureCookie: false });
    expect(sessions.cookieName).toBe('corekit-console');
    expect(sessionCookie('corekit-console', 'x', { secure: false, maxAgeSeconds: 60 })).toBe(
      'corekit-console=x; Path=/; Max-Age=60; HttpOnly; SameSite=Strict',
    );
  });
});
