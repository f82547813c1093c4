import { mapSesStatusCallbacks } from './index';
import { snsStringToSign } from './sns-envelope';
import { sesCallbackFixture } from './test-support/ses-callback-fixture';
import { notification, sesEvent, topicArn } from './test-support/sns-test-pki';

const ses = sesCallbackFixture();
const { pki, start, post, logged } = ses;

describe('SNS envelope fields checked before the signature and the replay claim', () => {
  it('refuses a MessageId with a folded Subject (same string to sign, another replay key): 401 CALLBACK_MESSAGE_ID_INVALID', async () => {
    const invitationId = await start();
    const envelope = notification(sesEvent('Bounce', { tenantId: 'acme', invitationId }), pki.leafKey);
    const { Subject, ...withoutSubject } = envelope;
    const folded = { ...withoutSubject, MessageId: `${envelope.MessageId}\nSubject\n${Subject}` };
    // The premise of the attack: the signature still covers the folded envelope byte for byte.
    expect(snsStringToSign(folded)).toBe(snsStringToSign(envelope));
    expect((await post(envelope)).status).toBe(200);
    const before = await ses.test.snapshot();
    expect(await post(folded)).toMatchObject({ status: 401, code: 'CALLBACK_MESSAGE_ID_INVALID' });
    expect(await ses.test.snapshot()).toBe(before);
    expect(logged(4579)).toBe(1);
  });

  it.each([
    ['not a UUID', 'message-1'],
    ['a UUID with a trailing newline', '00000000-0000-4000-8000-000000000001\n'],
    ['braces', '{00000000-0000-4000-8000-000000000001}'],
  ])('refuses a signed MessageId that is %s', async (_name, messageId) => {
    const invitationId = await start();
    const envelope = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey, {
      MessageId: messageId,
    });
    const fetched = ses.server.requests.length;
    expect(await post(envelope)).toMatchObject({ status: 401, code: 'CALLBACK_MESSAGE_ID_INVALID' });
    // Refused before the certificate is fetched.
    expect(ses.server.requests).toHaveLength(fetched);
  });

  it('bounds the Timestamp age (default one hour, five minutes ahead at most) and refuses a malformed one', async () => {
    const invitationId = await start();
    const record = sesEvent('Delivery', { tenantId: 'acme', invitationId });
    const at = (offsetSeconds: number) =>
      new Date(ses.test.now().getTime() + offsetSeconds * 1000).toISOString();
    const stale = notification(record, pki.leafKey, { Timestamp: at(-3601) });
    expect(await post(stale)).toMatchObject({ status: 401, code: 'CALLBACK_SIGNATURE_STALE' });
    const ahead = notification(record, pki.leafKey, { Timestamp: at(301) });
    expect(await post(ahead)).toMatchObject({ status: 401, code: 'CALLBACK_SIGNATURE_STALE' });
    for (const Timestamp of ['yesterday', '2030-01-01 00:00:00Z', `${at(0)}\nTopicArn\n${topicArn}`]) {
      expect(await post(notification(record, pki.leafKey, { Timestamp }))).toMatchObject({
        status: 401,
        code: 'CALLBACK_SIGNATURE_MALFORMED',
      });
    }
    expect(await ses.test.snapshot()).toBe('[]');
    expect((await post(notification(record, pki.leafKey, { Timestamp: at(-3590) }))).status).toBe(200);
  });

  it('an envelope accepted now is refused as stale once SnsMessageMaxAgeSeconds has passed', async () => {
    const invitationId = await start({ SnsMessageMaxAgeSeconds: 120, SnsReplayRetentionSeconds: 600 });
    const record = sesEvent('Delivery', { tenantId: 'acme', invitationId });
    const Timestamp = ses.test.now().toISOString();
    const first = notification(record, pki.leafKey, { Timestamp });
    const second = notification(record, pki.leafKey, { Timestamp });
    ses.test.advance(120);
    expect((await post(first)).status).toBe(200);
    ses.test.advance(1);
    expect(await post(second)).toMatchObject({ status: 401, code: 'CALLBACK_SIGNATURE_STALE' });
  });

  it('refuses a misspelled age key and a replay window shorter than the accepted age at startup', async () => {
    await expect(
      ses.startEngine((builder) =>
        mapSesStatusCallbacks(builder, { AllowedSnsTopicArns: [topicArn], SnsMessageMaxAge: 60 } as never),
      ),
    ).rejects.toThrow(/SnsMessageMaxAge\b/);
    await expect(
      ses.startEngine((builder) =>
        mapSesStatusCallbacks(builder, {
          AllowedSnsTopicArns: [topicArn],
          SnsMessageMaxAgeSeconds: 7200,
          SnsReplayRetentionSeconds: 3600,
        }),
      ),
    ).rejects.toThrow(/SnsReplayRetentionSeconds/);
  });
});
