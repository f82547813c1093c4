import type { InvitationSender } from '@corekit/tenant-governance';
import {
  startCallbackEngine,
  testStartMs,
  type CallbackTestEngine,
} from '../../callback-kit/src/test-support/callback-test-engine';
import { mapSendGridStatusCallbacks } from './index';
import { sendGridEvent, sendGridTestKey, signSendGrid } from './test-support/sendgrid-signing';

const now = Math.floor(testStartMs / 1000);
const path = '/engine/tenant-invitations/delivery-status/sendgrid';
let test: CallbackTestEngine;
afterEach(async () => test?.close());

const sender: InvitationSender = {
  id: 'sendgrid',
  supportedChannels: ['email'],
  async send() {
    return { outcome: 'dispatched', providerMessageId: 'msg-abc', metadata: {} };
  },
};

async function post(raw: Buffer, headers: Record<string, string>) {
  const response = await fetch(`${test.base}${path}`, { method: 'POST', body: raw, headers });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}

describe('SendGrid callbacks over HTTP', () => {
  it('is fail-closed by default: 401 without credentials, 403 refused, signed and authorized 200', async () => {
    const key = sendGridTestKey();
    test = await startCallbackEngine(
      (builder, clock) =>
        mapSendGridStatusCallbacks(builder, { SignedEventWebhookPublicKey: key.publicKey }, { now: clock }),
      { http: true },
    );
    const invitationId = await test.invite();
    const raw = Buffer.from(
      JSON.stringify([sendGridEvent('e1', 'delivered', { tenantId: 'acme', invitationId })]),
    );
    const headers = signSendGrid(key.privateKey, raw, now);
    expect((await post(raw, headers)).status).toBe(401);
    expect((await post(raw, { ...headers, authorization: 'Bearer other' })).status).toBe(403);
    expect(await test.status().hasObservation('sendgrid:e1')).toBe(false);
    const tampered = Buffer.from(raw);
    tampered[5] ^= 1;
    const refused = await post(tampered, { ...headers, authorization: 'Bearer test-token' });
    expect(refused).toMatchObject({ status: 401, body: { code: 'CALLBACK_SIGNATURE_INVALID' } });
    const ok = await post(raw, { ...headers, authorization: 'Bearer test-token' });
    expect(ok).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect((await post(raw, { ...headers, authorization: 'Bearer test-token' })).status).toBe(409);
    const big = Buffer.alloc(1_048_577, 0x20);
    expect(
      (await post(big, { ...signSendGrid(key.privateKey, big, now), authorization: 'Bearer test-token' }))
        .status,
    ).toBe(413);
  });

  it('end to end: dispatch through a sender, signed callback over HTTP, reconciled status read back', async () => {
    const key = sendGridTestKey();
    test = await startCallbackEngine(
      (builder, clock) =>
        mapSendGridStatusCallbacks(
          builder,
          {
            SignedEventWebhookPublicKey: key.publicKey,
            RequireStatusCallbackAuthorization: false,
            RequireProviderMessageMatch: true,
          },
          { now: clock },
        ),
      { http: true, senders: [sender] },
    );
    const invitationId = await test.invite();
    expect(await test.dispatch('acme', invitationId)).toMatchObject({
      outcomes: [expect.objectContaining({ outcome: 'dispatched' })],
    });
    const context = { tenantId: 'acme', invitationId };
    const raw = Buffer.from(
      JSON.stringify([
        sendGridEvent('e1', 'processed', context),
        sendGridEvent('e2', 'delivered', context),
        sendGridEvent('e3', 'delivered', context, { sg_message_id: 'someone-else.filter' }),
      ]),
    );
    const answer = await post(raw, {
      ...signSendGrid(key.privateKey, raw, now),
      'content-type': 'application/json',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.outcomes.map((entry: any) => entry.outcome)).toEqual([
      'reconciled',
      'reconciled',
      'provider-message-mismatch',
    ]);
    const read = await test.status().query({ invitationId, tenantId: 'acme' });
    expect(read.observations.map((entry) => entry.status).sort()).toEqual(['accepted', 'delivered']);
    expect(await test.status().getStatus('acme', invitationId)).toMatchObject({
      status: 'delivered',
      providerMessageId: 'msg-abc',
    });
  });
});

describe('SendGrid callbacks disabled', () => {
  it('maps no route and says so on the surface', async () => {
    test = await startCallbackEngine(
      (builder) =>
        mapSendGridStatusCallbacks(builder, {
          EnableStatusCallbackEndpoint: false,
          RequireSignedEventWebhook: false,
        }),
      { http: true },
    );
    const response = await fetch(`${test.base}${path}`, {
      method: 'POST',
      body: '[]',
      headers: { authorization: 'Bearer test-token' },
    });
    expect(response.status).toBe(404);
    expect(test.engine.operations.find('tenant-governance.sendgrid-status-callback')).toBeUndefined();
    const surface = test.engine
      .technologySurfaces()
      .find((entry) => entry.id === 'tenant-invitation-delivery-sendgrid-status-callbacks')!;
    expect(surface.metadata).toMatchObject({
      endpoint: { mapped: false, disabled: true, configured: true, state: 'disabled', operationId: null },
    });
  });
});
