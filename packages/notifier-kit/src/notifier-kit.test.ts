import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { sampleNotification } from '@corekit/testing/notifier-conformance';
import {
  classifyHttpStatus,
  classifyRequestError,
  defineNotifier,
  notificationSchema,
  notificationTitle,
  notifierOutcome,
  notifierRegistryKey,
  parseRetryAfter,
} from './index';

const addEchoNotifier = defineNotifier({
  kind: 'Echo',
  packageName: '@corekit/notifier-kit',
  targetShape: { Token: secretString(), Mode: z.enum(['ok', 'throw', 'leak']).default('ok') },
  validateTarget: (target, issue) => {
    if (target.Token.length < 8) issue('Token', 'must be at least 8 characters');
  },
  describeTarget: (target) => `echo ${target.Token}`,
  send: async (_notification, target) => {
    if (target.Mode === 'throw')
      throw Object.assign(new Error(`failed with ${target.Token}`), { code: 'ECONNRESET' });
    if (target.Mode === 'leak') return notifierOutcome.terminal(`refused token ${target.Token}`, 401);
    return notifierOutcome.delivered(200);
  },
});

describe('send outcome classification', () => {
  it('2xx is delivered, unless the accepted list says otherwise', () => {
    expect(classifyHttpStatus(204)).toEqual({ outcome: 'delivered', responseCode: 204 });
    expect(classifyHttpStatus(200, null, [202])).toMatchObject({ outcome: 'terminal', responseCode: 200 });
  });
  it('5xx, 408, 425 and 429 are retryable; other 4xx and 3xx terminal', () => {
    for (const status of [500, 502, 503, 408, 425, 429])
      expect(classifyHttpStatus(status).outcome).toBe('retryable');
    for (const status of [301, 400, 401, 403, 404, 410, 413, 422])
      expect(classifyHttpStatus(status).outcome).toBe('terminal');
  });
  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 01 Dec 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Tue, 01 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(classifyHttpStatus(503, '12')).toMatchObject({ retryAfterMs: 12_000 });
  });
  it('keeps only the code of a request error, never its message (URLs carry tokens)', () => {
    const outcome = classifyRequestError(
      Object.assign(new Error('connect ECONNREFUSED https://hooks.example/T000/secret'), {
        code: 'ECONNREFUSED',
      }),
    );
    expect(outcome).toEqual({
      outcome: 'retryable',
      responseCode: null,
      reason: 'request failed: ECONNREFUSED',
      retryAfterMs: null,
    });
    const aborted = new AbortController();
    aborted.abort();
    expect(classifyRequestError(new Error('x'), aborted.signal)).toMatchObject({
      reason: expect.stringMatching(/timeout/),
    });
  });
});

describe('the notification payload', () => {
  it('the sample notification of the conformance suite is valid and titled by the kit', () => {
    const notification = notificationSchema.parse(sampleNotification());
    expect(notificationTitle(notification)).toBe('[FIRING] orders-service: 2 alerts (unhealthy)');
  });
});

describe('defineNotifier', () => {
  const token = 'echo-token-0123456789';
  it('binds Engine:Alerts:Notifiers:<Kind>, registers targets and never throws from send', async () => {
    const { builder } = createTestEngineBuilder({
      configuration: {
        Engine: { Alerts: { Notifiers: { Echo: { Targets: [{ Id: 'a', Token: token }] } } } },
      },
    });
    addEchoNotifier(builder, {
      Targets: [{ Id: 'b', Token: token, Mode: 'throw', MinimumSeverity: 'unhealthy' }],
    });
    const registry = builder.resolve(notifierRegistryKey)!;
    expect(registry.list().map((notifier) => [notifier.id, notifier.kind, notifier.minimumSeverity])).toEqual(
      [
        ['a', 'Echo', 'degraded'],
        ['b', 'Echo', 'unhealthy'],
      ],
    );
    expect(registry.get('a')!.target).toBe('echo ***');
    expect(await registry.get('a')!.send(sampleNotification())).toEqual({
      outcome: 'delivered',
      responseCode: 200,
    });
    const thrown = await registry.get('b')!.send(sampleNotification());
    expect(thrown).toEqual({
      outcome: 'retryable',
      responseCode: null,
      reason: 'request failed: ECONNRESET',
      retryAfterMs: null,
    });
  });
  it('scrubs the secret from an outcome that carries it', async () => {
    const { builder } = createTestEngineBuilder();
    addEchoNotifier(builder, { Targets: [{ Id: 'leaky', Token: token, Mode: 'leak' }] });
    const outcome = await builder.resolve(notifierRegistryKey)!.get('leaky')!.send(sampleNotification());
    expect(JSON.stringify(outcome)).not.toContain(token);
  });
  it('refuses an invalid target with the full key path, and a duplicate Id across kinds', () => {
    const { builder } = createTestEngineBuilder();
    expect(() => addEchoNotifier(builder, { Targets: [{ Id: 'short', Token: 'abc' }] })).toThrow(
      /Engine:Alerts:Notifiers:Echo:Targets:0:Token/,
    );
    const addOther = defineNotifier({
      kind: 'Other',
      packageName: '@corekit/notifier-kit',
      targetShape: {},
      describeTarget: () => 'other',
      send: async () => notifierOutcome.delivered(200),
    });
    addEchoNotifier(builder, { Targets: [{ Id: 'same', Token: token }] });
    expect(() => addOther(builder, { Targets: [{ Id: 'same' }] })).toThrow(
      /NOTIFIER_ID_DUPLICATE|already used/,
    );
  });
  it('fails the build when targets are registered and nothing delivers them', () => {
    const { builder } = createTestEngineBuilder();
    addEchoNotifier(builder, { Targets: [{ Id: 'orphan', Token: token }] });
    expect(() => builder.build()).toThrow(
      /"orphan" are registered but nothing delivers them: call addAlerts/,
    );
  });
});
