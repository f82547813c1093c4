import {
  startCallbackEngine,
  testStartMs,
  type CallbackTestEngine,
} from '../../callback-kit/src/test-support/callback-test-engine';
import {
  mapMailgunStatusCallbacks,
  mailgunCallbackOperationId as op,
  mailgunCallbackSurfaceId,
} from './index';
import { mailgunItem, mailgunSignature, mailgunTestKey } from './test-support/mailgun-signing';

const now = Math.floor(testStartMs / 1000);
let test: CallbackTestEngine;
afterEach(async () => test?.close());

async function start(options: Record<string, unknown> = {}) {
  test = await startCallbackEngine((builder, clock) =>
    mapMailgunStatusCallbacks(builder, { WebhookSigningKey: mailgunTestKey, ...options }, { now: clock }),
  );
  return { invitationId: await test.invite() };
}
const json = (value: unknown) => ({
  raw: Buffer.from(JSON.stringify(value)),
  headers: { 'content-type': 'application/json' },
});

describe('Mailgun status callbacks', () => {
  it('verifies each item, maps the table (failed by severity), skips engagement, unmapped and context-less items', async () => {
    const { invitationId } = await start();
    const context = { tenantId: 'acme', invitationId };
    const other = await test.invite();
    const answer = await test.invoke(
      op,
      json([
        mailgunItem('m1', 'accepted', now, context),
        mailgunItem('m2', 'failed', now, context, { severity: 'temporary' }),
        mailgunItem('m3', 'opened', now, context),
        mailgunItem('m4', 'rejected', now, context),
        mailgunItem('m5', 'delivered', now, { tenantId: 'acme' }),
        mailgunItem(
          'm6',
          'failed',
          now,
          { tenantId: 'acme', invitationId: other },
          { severity: 'permanent' },
        ),
      ]),
    );
    expect(answer.status).toBe(200);
    const body = answer.body as any;
    expect(body.outcomes.map((entry: any) => [entry.outcome, entry.status])).toEqual([
      ['reconciled', 'accepted'],
      ['reconciled', 'deferred'],
      ['skipped-engagement', undefined],
      ['skipped-unmapped', undefined],
      ['skipped-no-context', undefined],
      ['reconciled', 'bounced'],
    ]);
    expect(JSON.stringify(body)).not.toMatch(/invitee@|user-variables|signature/);
    expect(await test.status().getStatus('acme', invitationId)).toMatchObject({
      status: 'deferred',
      providerMessageId: '<20300101000000.1.ABCDEF@mg.example.test>',
    });
    expect((await test.status().getStatus('acme', other))?.status).toBe('bounced');
    expect(test.logger.records.some((record) => record.eventId === 4568)).toBe(true);
  });

  it('accepts a single object, leaves the message id bare when asked, maps other failures to failed', async () => {
    const { invitationId } = await start({ NormalizeProviderMessageIdWithAngleBrackets: false });
    const answer = await test.invoke(
      op,
      json(mailgunItem('m1', 'failed', now, { tenantId: 'acme', invitationId })),
    );
    expect(answer.body).toMatchObject({ received: 1, accepted: 1 });
    expect(await test.status().getStatus('acme', invitationId)).toMatchObject({
      status: 'failed',
      providerMessageId: '20300101000000.1.ABCDEF@mg.example.test',
    });
  });

  it('answers 409 to a reused token (4570), 200 DuplicateEvents to a re-signed event (4571), skips in-batch duplicates', async () => {
    const { invitationId } = await start();
    const item = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
    expect((await test.invoke(op, json(item))).status).toBe(200);
    const before = await test.snapshot();
    expect(await test.invoke(op, json(item))).toMatchObject({ status: 409, code: 'CALLBACK_REPLAY' });
    expect(test.logger.records.filter((record) => record.eventId === 4570)).toHaveLength(1);
    const resigned = { ...item, signature: mailgunSignature(now) };
    const again = await test.invoke(op, json([resigned, { ...item, signature: mailgunSignature(now) }]));
    expect(again).toMatchObject({ status: 200, body: { duplicateEvents: 2, accepted: 0 } });
    expect(test.logger.records.filter((record) => record.eventId === 4571)).toHaveLength(2);
    expect(await test.snapshot()).toBe(before);
  });

  it('refuses a batch whose items repeat a token (401 CALLBACK_SIGNATURE_TOKEN_REPEATED): one signature authorizes one event', async () => {
    const { invitationId } = await start();
    const other = await test.invite();
    const signed = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
    const forged = mailgunItem('m2', 'complained', now, { tenantId: 'acme', invitationId: other });
    forged.signature = signed.signature;
    const before = await test.snapshot();
    expect(await test.invoke(op, json([signed, forged]))).toMatchObject({
      status: 401,
      code: 'CALLBACK_SIGNATURE_TOKEN_REPEATED',
    });
    expect(await test.snapshot()).toBe(before);
    expect(await test.status().hasObservation('mailgun:m2')).toBe(false);
    expect(test.logger.records.some((record) => record.eventId === 4569)).toBe(true);
    // The token was not claimed by the refused batch: the genuine webhook alone still goes through once.
    expect(await test.invoke(op, json(signed))).toMatchObject({ status: 200, body: { accepted: 1 } });
  });

  it('refuses a repeated token in a batch even with replay protection off', async () => {
    const { invitationId } = await start({ EnableSignedWebhookReplayProtection: false });
    const signed = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
    const forged = mailgunItem('m2', 'complained', now, { tenantId: 'acme', invitationId });
    forged.signature = { ...(signed.signature as object) };
    expect(await test.invoke(op, json([signed, forged, forged]))).toMatchObject({
      status: 401,
      code: 'CALLBACK_SIGNATURE_TOKEN_REPEATED',
    });
  });

  describe('tampered matrix: every signed field and the signature blocks', () => {
    const cases: Array<[string, (item: any) => void, string]> = [
      [
        'timestamp changed',
        (item) => (item.signature.timestamp = String(Number(item.signature.timestamp) + 1)),
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'token changed',
        (item) =>
          (item.signature.token = item.signature.token.replace(/^./, (c: string) => (c === 'a' ? 'b' : 'a'))),
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'signature changed',
        (item) =>
          (item.signature.signature = item.signature.signature.replace(/^./, (c: string) =>
            c === 'a' ? 'b' : 'a',
          )),
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'signed with another key',
        (item) => (item.signature = mailgunSignature(now, 'another-key')),
        'CALLBACK_SIGNATURE_INVALID',
      ],
      ['signature block missing', (item) => delete item.signature, 'CALLBACK_SIGNATURE_MISSING'],
      ['token missing', (item) => delete item.signature.token, 'CALLBACK_SIGNATURE_MISSING'],
      ['signature not hex', (item) => (item.signature.signature = 'zz'), 'CALLBACK_SIGNATURE_MALFORMED'],
      [
        'signature upper-case hex',
        (item) => (item.signature.signature = item.signature.signature.toUpperCase()),
        'CALLBACK_SIGNATURE_MALFORMED',
      ],
      [
        'timestamp not digits',
        (item) => (item.signature.timestamp = '1.5e9'),
        'CALLBACK_SIGNATURE_MALFORMED',
      ],
      ['timestamp a number', (item) => (item.signature.timestamp = now), 'CALLBACK_SIGNATURE_MALFORMED'],
      ['stale', (item) => (item.signature = mailgunSignature(now - 301)), 'CALLBACK_SIGNATURE_STALE'],
      [
        'from the future',
        (item) => (item.signature = mailgunSignature(now + 301)),
        'CALLBACK_SIGNATURE_STALE',
      ],
      [
        'parent signature only (not accepted)',
        (item) => (
          (item['parent-signature'] = item.signature),
          (item.signature = mailgunSignature(now, 'sub-key'))
        ),
        'CALLBACK_SIGNATURE_INVALID',
      ],
    ];
    it.each(cases)('%s: 401 and nothing changes', async (_name, tamper, code) => {
      const { invitationId } = await start();
      const item = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
      tamper(item);
      const before = await test.snapshot();
      expect(await test.invoke(op, json(item))).toMatchObject({ status: 401, code });
      expect(await test.snapshot()).toBe(before);
      expect(test.logger.records.some((record) => record.eventId === 4569)).toBe(true);
    });

    it('one bad item refuses the whole batch', async () => {
      const { invitationId } = await start();
      const good = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
      const bad = mailgunItem('m2', 'delivered', now, { tenantId: 'acme', invitationId }, {}, 'wrong');
      expect((await test.invoke(op, json([good, bad]))).status).toBe(401);
      expect(await test.status().hasObservation('mailgun:m1')).toBe(false);
    });
  });

  it('accepts the parent-account signature only with AcceptParentSignature', async () => {
    const { invitationId } = await start({ AcceptParentSignature: true });
    const item = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
    item['parent-signature'] = item.signature;
    item.signature = mailgunSignature(now, 'sub-account-key');
    expect((await test.invoke(op, json(item))).status).toBe(200);
    expect(await test.status().hasObservation('mailgun:m1')).toBe(true);
  });

  it('refuses bodies that are not JSON objects or arrays, too many items and oversized bodies', async () => {
    const { invitationId } = await start({ MaxEventsPerRequest: 2, MaxRequestBodyBytes: 4096 });
    const items = [1, 2, 3].map((n) =>
      mailgunItem(`m${n}`, 'delivered', now, { tenantId: 'acme', invitationId }),
    );
    expect(await test.invoke(op, json(items))).toMatchObject({
      status: 400,
      code: 'CALLBACK_TOO_MANY_EVENTS',
    });
    expect(await test.invoke(op, json('text'))).toMatchObject({ status: 400, code: 'CALLBACK_BODY_INVALID' });
    expect(await test.invoke(op, json([]))).toMatchObject({
      status: 401,
      code: 'CALLBACK_SIGNATURE_MISSING',
    });
    expect(await test.invoke(op, { raw: Buffer.from('signature=x'), headers: {} })).toMatchObject({
      status: 400,
    });
    expect((await test.invoke(op, json([{ pad: 'x'.repeat(5000) }]))).status).toBe(413);
    expect(await test.status().hasObservation('mailgun:m1')).toBe(false);
  });

  it('reports the surface with explicit not-configured truth when unsigned, and never the key', async () => {
    test = await startCallbackEngine((builder, clock) =>
      mapMailgunStatusCallbacks(
        builder,
        { RequireSignedWebhook: false, EnableWebhookEventIdIdempotency: false },
        { now: clock },
      ),
    );
    const invitationId = await test.invite();
    const unsigned = mailgunItem('m1', 'complained', now, { tenantId: 'acme', invitationId });
    delete unsigned.signature;
    expect((await test.invoke(op, json(unsigned))).status).toBe(200);
    expect((await test.status().getStatus('acme', invitationId))?.status).toBe('suppressed');
    const surface = test.engine.technologySurfaces().find((entry) => entry.id === mailgunCallbackSurfaceId)!;
    expect(surface.metadata).toMatchObject({
      signature: { configured: false, status: 'not-configured' },
      replayProtection: { configured: false, status: 'not-configured' },
      eventIdIdempotency: { configured: false, status: 'not-configured' },
      endpoint: { routePattern: '/engine/tenant-invitations/delivery-status/mailgun', method: 'POST' },
    });
  });

  it('reports the signed surface without the signing key, tokens or identifiers', async () => {
    const { invitationId } = await start();
    const item = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
    await test.invoke(op, json(item));
    const surface = test.engine.technologySurfaces().find((entry) => entry.id === mailgunCallbackSurfaceId)!;
    expect(surface.metadata).toMatchObject({
      signature: {
        configured: true,
        algorithm: 'HMAC-SHA256',
        comparison: 'constant-time',
        acceptParentSignature: false,
      },
      replayProtection: {
        configured: true,
        key: 'token',
        scope: 'process-local',
        retentionSeconds: 600,
        cacheLimit: 10000,
      },
      eventIdIdempotency: { configured: true, backing: 'observation-store' },
      authorization: { required: true, posture: 'fail-closed' },
    });
    const text = JSON.stringify(test.engine.technologySurfaces()) + JSON.stringify(test.logger.records);
    for (const secret of [
      mailgunTestKey,
      (item.signature as any).token,
      invitationId,
      'invitee@example.test',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('refuses a missing signing key and unknown keys at startup', async () => {
    await expect(startCallbackEngine((builder) => mapMailgunStatusCallbacks(builder, {}))).rejects.toThrow(
      /WebhookSigningKey/,
    );
    await expect(
      startCallbackEngine((builder) =>
        mapMailgunStatusCallbacks(builder, { WebhookSigningKey: 'k', AcceptParentSignatures: true } as never),
      ),
    ).rejects.toThrow(/AcceptParentSignatures/);
  });
});
