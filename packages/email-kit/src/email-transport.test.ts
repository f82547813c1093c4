import { classifyEmailHttpStatus, isTimeoutError, retryAfterMsOf, untilAborted } from './email-transport';

describe('email transports (message-neutral)', () => {
  it('classifies HTTP answers: accepted delivered, 408/425/429/5xx retryable with Retry-After, others terminal', () => {
    expect(classifyEmailHttpStatus(202, true, 'id-1', { s: 202 })).toEqual({
      outcome: 'delivered',
      responseCode: 202,
      providerMessageId: 'id-1',
      metadata: { s: 202 },
    });
    expect(classifyEmailHttpStatus(503, false, null, {}, '7')).toMatchObject({
      outcome: 'retryable',
      reason: 'http-status-503',
      retryAfterMs: 7000,
    });
    for (const status of [408, 425, 429, 500])
      expect(classifyEmailHttpStatus(status, false, null, {}).outcome).toBe('retryable');
    for (const status of [200, 301, 400, 401, 404])
      expect(classifyEmailHttpStatus(status, false, null, {})).toMatchObject({
        outcome: 'terminal',
        reason: `http-status-${status}`,
      });
  });

  it('reads Retry-After as seconds or an HTTP date, clamped to a day, null when unreadable', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(retryAfterMsOf('120', now)).toBe(120_000);
    expect(retryAfterMsOf(['3'], now)).toBe(3000);
    expect(retryAfterMsOf('Tue, 01 Dec 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMsOf('Tue, 01 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMsOf('999999', now)).toBe(24 * 60 * 60 * 1000);
    expect(retryAfterMsOf('soon', now)).toBeNull();
    expect(retryAfterMsOf(undefined, now)).toBeNull();
  });

  it('ends an attempt when its signal aborts, and passes the call through otherwise', async () => {
    const controller = new AbortController();
    const never = new Promise<string>(() => undefined);
    const pending = untilAborted(never, controller.signal, () => 'aborted');
    controller.abort();
    await expect(pending).resolves.toBe('aborted');
    await expect(
      untilAborted(Promise.resolve('sent'), new AbortController().signal, () => 'x'),
    ).resolves.toBe('sent');
    await expect(
      untilAborted(Promise.reject(new Error('refused')), new AbortController().signal, () => 'x'),
    ).rejects.toThrow('refused');
    expect(isTimeoutError({ code: 'ETIMEDOUT' }, new AbortController().signal)).toBe(true);
    expect(isTimeoutError({ code: 'ECONNREFUSED' }, new AbortController().signal)).toBe(false);
    expect(isTimeoutError({}, controller.signal)).toBe(true);
  });
});
