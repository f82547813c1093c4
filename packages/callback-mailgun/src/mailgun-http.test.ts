import { partialBodyRequest } from '@corekit/testing/partial-body-request';
import type { InvitationSender } from '@corekit/tenant-governance';
import {
  startCallbackEngine,
  testStartMs,
  type CallbackTestEngine,
} from '../../callback-kit/src/test-support/callback-test-engine';
import { mapMailgunStatusCallbacks } from './index';
import { mailgunItem, mailgunTestKey } from './test-support/mailgun-signing';

const now = Math.floor(testStartMs / 1000);
const path = '/engine/tenant-invitations/delivery-status/mailgun';
let test: CallbackTestEngine;
afterEach(async () => test?.close());

async function post(value: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${test.base}${path}`, {
    method: 'POST',
    body: JSON.stringify(value),
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}

describe('Mailgun callbacks over HTTP', () => {
  it('answers 413 to a declared 5 MB webhook after 16 KiB, the rest never sent, and to a chunked one past the limit', async () => {
    test = await startCallbackEngine(
      (builder, clock) =>
        mapMailgunStatusCallbacks(
          builder,
          { WebhookSigningKey: mailgunTestKey, MaxRequestBodyBytes: 8192 },
          { now: clock },
        ),
      { http: true },
    );
    const port = Number(new URL(test.base!).port);
    const headers = { 'content-type': 'application/json', authorization: 'Bearer test-token' };
    const declared = await partialBodyRequest({
      port,
      path,
      headers,
      send: Buffer.alloc(16_384, 32),
      declare: 5 * 1024 * 1024,
    });
    expect(declared.status).toBe(413);
    const chunked = await partialBodyRequest({
      port,
      path,
      headers,
      send: Buffer.alloc(9000, 32),
      declare: 'chunked',
    });
    expect(chunked.status).toBe(413);
  });

  it('is fail-closed by default and verifies signed webhooks behind the host authorization', async () => {
    test = await startCallbackEngine(
      (builder, clock) =>
        mapMailgunStatusCallbacks(
          builder,
          { WebhookSigningKey: mailgunTestKey, StatusCallbackAuthorizationPolicy: 'callbacks' },
          { now: clock },
        ),
      { http: true },
    );
    const invitationId = await test.invite();
    const item = mailgunItem('m1', 'delivered', now, { tenantId: 'acme', invitationId });
    expect((await post(item)).status).toBe(401);
    expect((await post(item, { authorization: 'Bearer nope' })).status).toBe(403);
    expect(await test.status().hasObservation('mailgun:m1')).toBe(false);
    const forged = { ...item, signature: { ...(item.signature as object), signature: '0'.repeat(64) } };
    expect(await post(forged, { authorization: 'Bearer test-token' })).toMatchObject({
      status: 401,
      body: { code: 'CALLBACK_SIGNATURE_INVALID' },
    });
    expect(await post(item, { authorization: 'Bearer test-token' })).toMatchObject({
      status: 200,
      body: { accepted: 1 },
    });
    expect((await post(item, { authorization: 'Bearer test-token' })).status).toBe(409);
  });

  it('end to end: dispatch through a sender, signed webhook over HTTP, reconciled status read back', async () => {
    const sender: InvitationSender = {
      id: 'mailgun',
      supportedChannels: ['email'],
      async send() {
        return {
          outcome: 'dispatched',
          providerMessageId: '<20300101000000.1.ABCDEF@mg.example.test>',
          metadata: {},
        };
      },
    };
    test = await startCallbackEngine(
      (builder, clock) =>
        mapMailgunStatusCallbacks(
          builder,
          {
            WebhookSigningKey: mailgunTestKey,
            RequireStatusCallbackAuthorization: false,
            RequireProviderMessageMatch: true,
          },
          { now: clock },
        ),
      { http: true, senders: [sender] },
    );
    const invitationId = await test.invite();
    await test.dispatch('acme', invitationId);
    const answer = await post([
      mailgunItem('m1', 'accepted', now, { tenantId: 'acme', invitationId }),
      mailgunItem('m2', 'delivered', now, { tenantId: 'acme', invitationId }),
    ]);
    expect(answer.body.outcomes.map((entry: any) => entry.outcome)).toEqual(['reconciled', 'reconciled']);
    const read = await test.status().query({ tenantId: 'acme', invitationId, providerKey: 'mailgun' });
    expect(read.observations).toHaveLength(2);
    expect(await test.status().getStatus('acme', invitationId)).toMatchObject({
      status: 'delivered',
      providerKey: 'mailgun',
    });
  });
});
