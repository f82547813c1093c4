import { startCallbackEngine } from '../../callback-kit/src/test-support/callback-test-engine';
import { mapSesStatusCallbacks, sesCallbackSurfaceId } from './index';
import { sesCallbackFixture } from './test-support/ses-callback-fixture';
import { confirmation, notification, sesEvent, topicArn } from './test-support/sns-test-pki';

const ses = sesCallbackFixture();
const { pki, rogue, start, post, logged } = ses;
const confirmRequests = () => ses.server.requests.filter((url) => url.startsWith('/?Action='));

describe('SES status callbacks over SNS', () => {
  it('verifies a version 2 notification through the certificate chain and reconciles it from the mail tags', async () => {
    const invitationId = await start();
    const envelope = notification(
      sesEvent('Bounce', { tenantId: 'acme', invitationId }, { bounce: { bounceType: 'Transient' } }),
      pki.leafKey,
    );
    const answer = await post(envelope, {
      'x-amz-sns-message-type': 'Notification',
      'x-amz-sns-message-id': envelope.MessageId,
      'x-amz-sns-topic-arn': topicArn,
    });
    expect(answer).toMatchObject({ status: 200, body: { kind: 'events', accepted: 1 } });
    expect((answer.body as any).outcomes[0]).toMatchObject({
      observationId: `amazon-ses-sns:${envelope.MessageId}`,
      outcome: 'reconciled',
      status: 'deferred',
    });
    expect(await ses.test.status().getStatus('acme', invitationId)).toMatchObject({
      status: 'deferred',
      providerMessageId: '0100018c-ses-message-id',
    });
    const missing = await post(notification(sesEvent('Delivery', { tenantId: 'acme' }), pki.leafKey));
    expect((missing.body as any).outcomes[0].outcome).toBe('skipped-no-context');
    expect(JSON.stringify(answer.body)).not.toContain('invitee@example.test');
    expect(logged(4578)).toBe(2);
  });

  it('requires version 2 when configured and verifies version 1 (SHA1withRSA) otherwise', async () => {
    const invitationId = await start();
    const v1 = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey, {}, '1');
    expect(await post(v1)).toMatchObject({ status: 401, code: 'CALLBACK_SIGNATURE_VERSION_REFUSED' });
    await ses.test.close();
    const second = await start({ RequireSnsSignatureVersion2: false });
    expect(
      (
        await post(
          notification(
            sesEvent('Delivery', { tenantId: 'acme', invitationId: second }),
            pki.leafKey,
            {},
            '1',
          ),
        )
      ).status,
    ).toBe(200);
  });

  it('answers 409 to a redelivered message (4580) and DuplicateEvents for a known message id (4581)', async () => {
    const invitationId = await start();
    const envelope = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey);
    expect((await post(envelope)).status).toBe(200);
    expect(await post(envelope)).toMatchObject({ status: 409, code: 'CALLBACK_REPLAY' });
    expect(logged(4580)).toBe(1);
    await ses.test.close();
    const second = await start({ EnableSnsReplayProtection: false });
    const again = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId: second }), pki.leafKey);
    expect((await post(again)).status).toBe(200);
    expect(await post(again)).toMatchObject({ status: 200, body: { duplicateEvents: 1, accepted: 0 } });
    expect(logged(4581)).toBe(1);
  });

  it('confirms subscriptions of allowed topics with a bounded GET, refuses redirects, and does nothing when disabled', async () => {
    await start({ EnableSnsSubscriptionConfirmation: true });
    const envelope = confirmation('SubscriptionConfirmation', pki.leafKey);
    ses.server.requests.length = 0;
    expect(await post(envelope)).toMatchObject({
      status: 200,
      body: { kind: 'subscription-confirmation', confirmation: { outcome: 'confirmed' } },
    });
    expect(confirmRequests()).toEqual([
      new URL(envelope.SubscribeURL!).pathname + new URL(envelope.SubscribeURL!).search,
    ]);
    expect(logged(4582)).toBe(1);
    ses.server.setConfirmStatus(302);
    const redirected = await post(confirmation('SubscriptionConfirmation', pki.leafKey));
    ses.server.setConfirmStatus(200);
    expect(redirected.body).toMatchObject({
      confirmation: { outcome: 'failed', reason: 'redirect-refused' },
    });
    const elsewhere = confirmation('SubscriptionConfirmation', pki.leafKey, {
      SubscribeURL: 'https://evil.test/?Action=ConfirmSubscription',
    });
    expect((await post(elsewhere)).body).toMatchObject({
      confirmation: { outcome: 'failed', reason: 'subscribe-url-invalid' },
    });
    expect(logged(4583)).toBe(2);
    const notAllowed = confirmation('SubscriptionConfirmation', pki.leafKey, {
      TopicArn: 'arn:aws:sns:us-east-1:123456789012:unknown',
    });
    expect((await post(notAllowed)).status).toBe(403);
    await ses.test.close();
    await start();
    ses.server.requests.length = 0;
    expect((await post(confirmation('SubscriptionConfirmation', pki.leafKey))).body).toMatchObject({
      confirmation: { outcome: 'disabled' },
    });
    expect(confirmRequests()).toEqual([]);
  });

  it('uses a replaced confirmation client, and never invokes an unsubscribe URL (4584)', async () => {
    const calls: string[] = [];
    await start(
      { EnableSnsSubscriptionConfirmation: true },
      { confirmationClient: { confirm: async (url: URL) => (calls.push(url.href), { confirmed: true }) } },
    );
    const subscribe = confirmation('SubscriptionConfirmation', pki.leafKey);
    expect((await post(subscribe)).body).toMatchObject({ confirmation: { outcome: 'confirmed' } });
    expect(calls).toEqual([subscribe.SubscribeURL]);
    ses.server.requests.length = 0;
    const unsubscribe = await post(confirmation('UnsubscribeConfirmation', pki.leafKey));
    expect(unsubscribe.body).toMatchObject({
      kind: 'unsubscribe-confirmation',
      confirmation: { outcome: 'observed', reason: 'subscribe-url-valid' },
    });
    expect(calls).toHaveLength(1);
    expect(confirmRequests()).toEqual([]);
    expect(logged(4584)).toBe(1);
  });

  it('rejects raw SES events while verifying; accepts them (idempotently) only with verification off and raw payloads allowed', async () => {
    await start();
    expect(await post(sesEvent('Delivery', { tenantId: 'acme', invitationId: 'x' }))).toMatchObject({
      status: 401,
      code: 'CALLBACK_UNVERIFIED_PAYLOAD',
    });
    await ses.test.close();
    await ses.startEngine((builder, now) =>
      mapSesStatusCallbacks(
        builder,
        { RequireSnsSignatureVerification: false, AcceptRawSesEventPayloads: true },
        { now },
      ),
    );
    const invitationId = await ses.test.invite();
    const events = [
      sesEvent('Send', { tenantId: 'acme', invitationId }),
      sesEvent('Complaint', { tenantId: 'acme', invitationId }),
    ];
    expect(await post(events)).toMatchObject({ status: 200, body: { accepted: 2 } });
    expect(await post(events)).toMatchObject({ status: 200, body: { duplicateEvents: 2 } });
    expect((await ses.test.status().getStatus('acme', invitationId))?.status).toBe('suppressed');
  });

  it('verifies against a pinned certificate without fetching when chain validation is deliberately off', async () => {
    const invitationId = await start({
      ValidateSnsSigningCertificateChain: false,
      PinnedSnsSigningCertificatePem: pki.leafCert,
    });
    ses.server.requests.length = 0;
    expect(
      (await post(notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey)))
        .status,
    ).toBe(200);
    expect(
      (await post(notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), rogue.leafKey)))
        .status,
    ).toBe(401);
    expect(ses.server.requests).toEqual([]);
  });

  it('refuses unsafe configurations at startup', async () => {
    const register = (options: Record<string, unknown>) =>
      startCallbackEngine((builder) => mapSesStatusCallbacks(builder, options));
    await expect(register({})).rejects.toThrow(/AllowedSnsTopicArns/);
    await expect(
      register({ AllowedSnsTopicArns: [topicArn], ValidateSnsSigningCertificateChain: false }),
    ).rejects.toThrow(/PinnedSnsSigningCertificatePem/);
    await expect(
      register({ AllowedSnsTopicArns: [topicArn], AcceptRawSesEventPayloads: true }),
    ).rejects.toThrow(/AcceptRawSesEventPayloads/);
    await expect(register({ AllowedSnsTopicArns: ['not-an-arn'] })).rejects.toThrow(/AllowedSnsTopicArns/);
    await expect(
      register({ AllowedSnsTopicArns: [topicArn], EnableSnsSubscriptionConfirmations: true }),
    ).rejects.toThrow(/EnableSnsSubscriptionConfirmations/);
  });

  it('reports every surface key with not-configured truth and no topic, URL, certificate or identifier', async () => {
    const invitationId = await start();
    await post(notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey));
    const surface = ses.test.engine.technologySurfaces().find((entry) => entry.id === sesCallbackSurfaceId)!;
    expect(surface.metadata).toMatchObject({
      endpoint: { routePattern: '/engine/tenant-invitations/delivery-status/amazon-ses-sns', mapped: true },
      authorization: { required: true, posture: 'fail-closed' },
      signature: {
        configured: true,
        signatureVersion2Required: true,
        certificateChainValidated: true,
        allowedTopicCount: 2,
      },
      replayProtection: { configured: true, key: 'topic-arn+message-id', retentionSeconds: 86400 },
      eventIdIdempotency: { configured: true, diagnosticEventId: 4581 },
      subscriptionConfirmation: { enabled: false, status: 'not-configured', redirectsFollowed: false },
      unsubscribeConfirmationObservation: { enabled: true, urlInvoked: false },
      counters: { verified: 1, eventsReconciled: 1 },
    });
    const text = JSON.stringify(ses.test.engine.technologySurfaces());
    for (const value of [
      topicArn,
      'sns.us-east-1',
      'BEGIN CERTIFICATE',
      invitationId,
      '0100018c-ses-message-id',
    ])
      expect(text).not.toContain(value);
  });
});
