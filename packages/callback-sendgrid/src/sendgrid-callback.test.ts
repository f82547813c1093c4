import {
  mapSendGridStatusCallbacks,
  sendGridCallbackOperationId as op,
  sendGridCallbackSurfaceId,
} from './index';
import { sendGridEvent, sendGridVector } from './test-support/sendgrid-signing';
import { nowSeconds, sendGridCallbackFixture } from './test-support/sendgrid-callback-fixture';

const sendgrid = sendGridCallbackFixture();
const { start, signed } = sendgrid;

describe('SendGrid status callbacks', () => {
  it('verifies, translates and reconciles a batch; skips engagement, unmapped and context-less events', async () => {
    await start();
    const invitationId = await sendgrid.test.invite();
    const context = { tenantId: 'acme', invitationId };
    const answer = await sendgrid.test.invoke(
      op,
      signed([
        sendGridEvent('e1', 'processed', context),
        sendGridEvent('e2', 'delivered', context),
        sendGridEvent('e3', 'open', context),
        sendGridEvent('e4', 'group_resubscribe', context),
        sendGridEvent('e5', 'delivered', { tenantId: 'acme' }),
        sendGridEvent('e6', 'bounce', { invitationId }),
        'not an event',
      ]),
    );
    expect(answer.status).toBe(200);
    const body = answer.body as any;
    expect(body.outcomes.map((entry: any) => entry.outcome)).toEqual([
      'reconciled',
      'reconciled',
      'skipped-engagement',
      'skipped-unmapped',
      'skipped-no-context',
      'skipped-no-context',
      'skipped-invalid-event',
    ]);
    expect(body).toMatchObject({
      provider: 'sendgrid',
      received: 7,
      translated: 2,
      skipped: 5,
      accepted: 2,
      duplicateEvents: 0,
    });
    expect(JSON.stringify(body)).not.toMatch(/invitee@example|smtp|email/);
    expect(JSON.stringify(body)).not.toContain(invitationId);
    const status = await sendgrid.test.status().getStatus('acme', invitationId);
    expect(status).toMatchObject({
      status: 'delivered',
      providerKey: 'sendgrid',
      providerMessageId: 'msg-abc',
    });
    expect(await sendgrid.test.status().hasObservation('sendgrid:e1')).toBe(true);
    expect(sendgrid.test.logger.records.some((record) => record.eventId === 4562)).toBe(true);
  });

  it('answers 409 to a replayed verified request (4564) and 200 DuplicateEvents to re-signed events (4565)', async () => {
    await start();
    const invitationId = await sendgrid.test.invite();
    const request = signed([sendGridEvent('e1', 'delivered', { tenantId: 'acme', invitationId })]);
    expect((await sendgrid.test.invoke(op, request)).status).toBe(200);
    const before = await sendgrid.test.snapshot();
    expect(await sendgrid.test.invoke(op, request)).toMatchObject({ status: 409, code: 'CALLBACK_REPLAY' });
    expect(sendgrid.test.logger.records.filter((record) => record.eventId === 4564)).toHaveLength(1);
    sendgrid.test.advance(5);
    const again = await sendgrid.test.invoke(
      op,
      signed([sendGridEvent('e1', 'delivered', { tenantId: 'acme', invitationId })], nowSeconds + 5),
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicateEvents: 1, accepted: 0 });
    expect((again.body as any).outcomes[0].outcome).toBe('duplicate');
    expect(sendgrid.test.logger.records.filter((record) => record.eventId === 4565)).toHaveLength(1);
    expect(await sendgrid.test.snapshot()).toBe(before);
  });

  it('skips duplicate event ids inside one batch before reconciliation', async () => {
    await start({ EnableEventWebhookEventIdIdempotency: false });
    const invitationId = await sendgrid.test.invite();
    const event = sendGridEvent('e1', 'delivered', { tenantId: 'acme', invitationId });
    const answer = await sendgrid.test.invoke(op, signed([event, event]));
    expect(answer.body).toMatchObject({ accepted: 1, duplicateEvents: 1 });
  });

  it.each([
    [
      'missing signature',
      (h: Record<string, string>) => ({ ...h, 'x-twilio-email-event-webhook-signature': '' }),
      'CALLBACK_SIGNATURE_MISSING',
    ],
    [
      'missing timestamp',
      (h: Record<string, string>) => {
        const c = { ...h };
        delete c['x-twilio-email-event-webhook-timestamp'];
        return c;
      },
      'CALLBACK_SIGNATURE_MISSING',
    ],
    [
      'malformed signature',
      (h: Record<string, string>) => ({ ...h, 'x-twilio-email-event-webhook-signature': 'zz' }),
      'CALLBACK_SIGNATURE_MALFORMED',
    ],
    [
      'malformed timestamp',
      (h: Record<string, string>) => ({ ...h, 'x-twilio-email-event-webhook-timestamp': 'soon' }),
      'CALLBACK_SIGNATURE_MALFORMED',
    ],
    [
      'changed timestamp',
      (h: Record<string, string>) => ({
        ...h,
        'x-twilio-email-event-webhook-timestamp': String(nowSeconds + 1),
      }),
      'CALLBACK_SIGNATURE_INVALID',
    ],
    [
      'other signature',
      (h: Record<string, string>) => ({
        ...h,
        'x-twilio-email-event-webhook-signature': sendGridVector.signature,
      }),
      'CALLBACK_SIGNATURE_INVALID',
    ],
  ])('refuses a %s with 401 and changes nothing', async (_name, tamper, code) => {
    await start();
    const invitationId = await sendgrid.test.invite();
    const request = signed([sendGridEvent('e1', 'delivered', { tenantId: 'acme', invitationId })]);
    const before = await sendgrid.test.snapshot();
    expect(
      await sendgrid.test.invoke(op, { raw: request.raw, headers: tamper(request.headers) }),
    ).toMatchObject({
      status: 401,
      code,
    });
    expect(await sendgrid.test.snapshot()).toBe(before);
    expect(sendgrid.test.logger.records.some((record) => record.eventId === 4563)).toBe(true);
  });

  it('refuses a changed body byte, a stale timestamp, an oversized body (413) and too many events (400)', async () => {
    await start({ MaxEventsPerRequest: 2, MaxRequestBodyBytes: 4096 });
    const invitationId = await sendgrid.test.invite();
    const request = signed([sendGridEvent('e1', 'delivered', { tenantId: 'acme', invitationId })]);
    const changed = Buffer.from(request.raw);
    changed[changed.length - 3] ^= 1;
    expect((await sendgrid.test.invoke(op, { raw: changed, headers: request.headers })).status).toBe(401);
    expect((await sendgrid.test.invoke(op, { ...signed([], nowSeconds - 301) })).code).toBe(
      'CALLBACK_SIGNATURE_STALE',
    );
    expect((await sendgrid.test.invoke(op, { ...signed([], nowSeconds + 301) })).code).toBe(
      'CALLBACK_SIGNATURE_STALE',
    );
    expect((await sendgrid.test.invoke(op, signed([{ padding: 'x'.repeat(5000) }]))).status).toBe(413);
    const three = [1, 2, 3].map((n) =>
      sendGridEvent(`e${n}`, 'delivered', { tenantId: 'acme', invitationId }),
    );
    expect(await sendgrid.test.invoke(op, signed(three))).toMatchObject({
      status: 400,
      code: 'CALLBACK_TOO_MANY_EVENTS',
    });
    expect(await sendgrid.test.invoke(op, signed({ event: 'delivered' }))).toMatchObject({
      status: 400,
      code: 'CALLBACK_BODY_INVALID',
    });
    expect(await sendgrid.test.status().hasObservation('sendgrid:e1')).toBe(false);
  });

  it('verifies before parsing: the published vector reaches the parser (400, not an array), a tampered one does not (401)', async () => {
    await sendgrid.startEngine(
      (builder, clock) =>
        mapSendGridStatusCallbacks(
          builder,
          { SignedEventWebhookPublicKey: sendGridVector.publicKey },
          { now: clock },
        ),
      { startMs: Number(sendGridVector.timestamp) * 1000 },
    );
    const headers = {
      'x-twilio-email-event-webhook-signature': sendGridVector.signature,
      'x-twilio-email-event-webhook-timestamp': sendGridVector.timestamp,
    };
    expect(
      await sendgrid.test.invoke(op, { raw: Buffer.from(sendGridVector.payload), headers }),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await sendgrid.test.invoke(op, {
        raw: Buffer.from(sendGridVector.payload.replace('test', 'tost')),
        headers,
      }),
    ).toMatchObject({
      status: 401,
    });
  });

  it('maps engagement as delivered when asked, keeps the whole sg_message_id when not normalizing', async () => {
    await start({ MapEngagementEventsAsDelivered: true, NormalizeProviderMessageIdFromSgMessageId: false });
    const invitationId = await sendgrid.test.invite();
    await sendgrid.test.invoke(op, signed([sendGridEvent('e1', 'open', { tenantId: 'acme', invitationId })]));
    expect(await sendgrid.test.status().getStatus('acme', invitationId)).toMatchObject({
      status: 'delivered',
      providerMessageId: 'msg-abc.filter0001.16648.5515E0B88.0',
    });
  });

  it('accepts unsigned batches only when the signed webhook is deliberately off', async () => {
    await sendgrid.startEngine((builder, clock) =>
      mapSendGridStatusCallbacks(builder, { RequireSignedEventWebhook: false }, { now: clock }),
    );
    const invitationId = await sendgrid.test.invite();
    const raw = Buffer.from(
      JSON.stringify([sendGridEvent('e1', 'bounce', { tenantId: 'acme', invitationId })]),
    );
    expect((await sendgrid.test.invoke(op, { raw, headers: {} })).status).toBe(200);
    expect((await sendgrid.test.status().getStatus('acme', invitationId))?.status).toBe('bounced');
    const surface = sendgrid.test.engine
      .technologySurfaces()
      .find((entry) => entry.id === sendGridCallbackSurfaceId)!;
    expect(surface.metadata).toMatchObject({
      signature: { configured: false, status: 'not-configured' },
      replayProtection: { configured: false, status: 'not-configured' },
    });
  });
});
