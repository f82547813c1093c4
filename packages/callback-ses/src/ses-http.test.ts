import type { InvitationSender } from '@corekit/tenant-governance';
import {
  startCallbackEngine,
  type CallbackTestEngine,
} from '../../callback-kit/src/test-support/callback-test-engine';
import { mapSesStatusCallbacks } from './index';
import {
  createSnsTestPki,
  loopbackLookup,
  notification,
  sesEvent,
  startSnsTestServer,
  topicArn,
} from './test-support/sns-test-pki';

const pki = createSnsTestPki();
let server: Awaited<ReturnType<typeof startSnsTestServer>>;
let test: CallbackTestEngine;
const path = '/engine/tenant-invitations/delivery-status/amazon-ses-sns';

beforeAll(async () => {
  server = await startSnsTestServer(pki, { '/SimpleNotificationService-test.pem': pki.leafCert });
});
afterAll(async () => server.close());
afterEach(async () => test?.close());

async function start(options: Record<string, unknown>, senders: InvitationSender[] = []) {
  test = await startCallbackEngine(
    (builder, now) =>
      mapSesStatusCallbacks(
        builder,
        { AllowedSnsTopicArns: [topicArn], ...options },
        { now, transport: { ca: pki.caCert, lookup: loopbackLookup, port: server.port } },
      ),
    { http: true, startMs: Date.now(), senders },
  );
}

async function post(envelope: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${test.base}${path}`, {
    method: 'POST',
    body: JSON.stringify(envelope),
    headers: {
      'content-type': 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': 'Notification',
      ...headers,
    },
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}

describe('SES callbacks over HTTP', () => {
  it('is fail-closed by default and accepts a verified text/plain envelope from an authorized caller', async () => {
    await start({ StatusCallbackAuthorizationPolicy: 'sns' });
    const invitationId = await test.invite();
    const envelope = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey);
    expect((await post(envelope)).status).toBe(401);
    expect((await post(envelope, { authorization: 'Bearer nope' })).status).toBe(403);
    const tampered = { ...envelope, Message: envelope.Message.replace('Delivery', 'Bounce') };
    expect(await post(tampered, { authorization: 'Bearer test-token' })).toMatchObject({
      status: 401,
      body: { code: 'CALLBACK_SIGNATURE_INVALID' },
    });
    expect(await post(envelope, { authorization: 'Bearer test-token' })).toMatchObject({
      status: 200,
      body: { accepted: 1 },
    });
    expect((await post(envelope, { authorization: 'Bearer test-token' })).status).toBe(409);
    const big = { ...envelope, Message: 'x'.repeat(1_100_000) };
    expect((await post(big, { authorization: 'Bearer test-token' })).status).toBe(413);
  });

  it('end to end: dispatch through a sender, signed SNS notification over HTTP, reconciled status read back', async () => {
    const sender: InvitationSender = {
      id: 'amazon-ses',
      supportedChannels: ['email'],
      async send() {
        return { outcome: 'dispatched', providerMessageId: '0100018c-ses-message-id', metadata: {} };
      },
    };
    await start({ RequireStatusCallbackAuthorization: false, RequireProviderMessageMatch: true }, [sender]);
    const invitationId = await test.invite();
    await test.dispatch('acme', invitationId);
    const context = { tenantId: 'acme', invitationId };
    expect((await post(notification(sesEvent('Send', context), pki.leafKey))).body.outcomes[0].outcome).toBe(
      'reconciled',
    );
    const bounce = sesEvent('Bounce', context, {
      bounce: { bounceType: 'Permanent', timestamp: '2030-01-01T00:05:00.000Z' },
    });
    expect((await post(notification(bounce, pki.leafKey))).body.outcomes[0]).toMatchObject({
      outcome: 'reconciled',
      reconciledStatus: 'bounced',
    });
    const read = await test.status().query({ tenantId: 'acme', invitationId, providerKey: 'amazon-ses-sns' });
    expect(read.observations.map((entry) => entry.status).sort()).toEqual(['accepted', 'bounced']);
    expect(read.attention.map((item) => item.category)).toEqual(['bounced']);
  });
});
