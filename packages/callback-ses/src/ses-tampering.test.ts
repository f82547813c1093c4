import type { SnsEnvelope } from './index';
import {
  certificateUrl,
  confirmation,
  notification,
  sesEvent,
  signEnvelope,
} from './test-support/sns-test-pki';
import { otherTopic, sesCallbackFixture } from './test-support/ses-callback-fixture';

const ses = sesCallbackFixture();
const { pki, rogue, start, post, logged } = ses;

describe('SES status callbacks: tampered envelopes', () => {
  describe('tampered matrix', () => {
    const resign = (envelope: SnsEnvelope, change: Partial<SnsEnvelope>) => ({ ...envelope, ...change });
    const cases: Array<[string, (envelope: SnsEnvelope) => unknown, number, string]> = [
      [
        'Message',
        (e) => resign(e, { Message: e.Message.replace('Delivery', 'Bounce') }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'MessageId (another UUID)',
        (e) => resign(e, { MessageId: e.MessageId.slice(0, -1) + (e.MessageId.endsWith('1') ? '2' : '1') }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      ['Subject', (e) => resign(e, { Subject: 'Other' }), 401, 'CALLBACK_SIGNATURE_INVALID'],
      [
        'Subject removed',
        (e) => {
          const c: any = { ...e };
          delete c.Subject;
          return c;
        },
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'Timestamp',
        (e) => resign(e, { Timestamp: new Date(Date.parse(e.Timestamp) + 1000).toISOString() }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'TopicArn (another allowed topic)',
        (e) => resign(e, { TopicArn: otherTopic }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'TopicArn not allowed',
        (e) => resign(e, { TopicArn: 'arn:aws:sns:us-east-1:123456789012:unknown' }),
        403,
        'CALLBACK_TOPIC_NOT_ALLOWED',
      ],
      [
        'Type',
        (e) => resign(e, { Type: 'SubscriptionConfirmation' as never }),
        401,
        'CALLBACK_SIGNATURE_MALFORMED',
      ],
      [
        'Signature byte',
        (e) => resign(e, { Signature: (e.Signature[0] === 'A' ? 'B' : 'A') + e.Signature.slice(1) }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'Signature removed',
        (e) => {
          const c: any = { ...e };
          delete c.Signature;
          return c;
        },
        401,
        'CALLBACK_SIGNATURE_MISSING',
      ],
      [
        'SignatureVersion',
        (e) => resign(e, { SignatureVersion: '1' }),
        401,
        'CALLBACK_SIGNATURE_VERSION_REFUSED',
      ],
      [
        'SignatureVersion unknown',
        (e) => resign(e, { SignatureVersion: '3' }),
        401,
        'CALLBACK_SIGNATURE_MALFORMED',
      ],
      [
        'certificate URL http',
        (e) => resign(e, { SigningCertURL: certificateUrl.replace('https', 'http') }),
        401,
        'CALLBACK_CERTIFICATE_URL_INVALID',
      ],
      [
        'certificate URL host',
        (e) => resign(e, { SigningCertURL: 'https://sns.us-east-1.amazonaws.com.evil.test/c.pem' }),
        401,
        'CALLBACK_CERTIFICATE_URL_INVALID',
      ],
      [
        'certificate URL not .pem',
        (e) => resign(e, { SigningCertURL: certificateUrl.replace('.pem', '.txt') }),
        401,
        'CALLBACK_CERTIFICATE_URL_INVALID',
      ],
      [
        'certificate URL port',
        (e) => resign(e, { SigningCertURL: certificateUrl.replace('.com/', '.com:8443/') }),
        401,
        'CALLBACK_CERTIFICATE_URL_INVALID',
      ],
      [
        'certificate URL path (404)',
        (e) => resign(e, { SigningCertURL: certificateUrl.replace('test.pem', 'gone.pem') }),
        401,
        'CALLBACK_CERTIFICATE_INVALID',
      ],
      [
        'certificate chain (rogue root)',
        (e) =>
          signEnvelope(
            { ...e, SigningCertURL: 'https://sns.us-east-1.amazonaws.com/rogue.pem' },
            rogue.leafKey,
          ),
        401,
        'CALLBACK_CERTIFICATE_INVALID',
      ],
      [
        'header message type',
        (e) => ({ envelope: e, headers: { 'x-amz-sns-message-type': 'SubscriptionConfirmation' } }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'header message id',
        (e) => ({ envelope: e, headers: { 'x-amz-sns-message-id': 'other' } }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
      [
        'header topic',
        (e) => ({ envelope: e, headers: { 'x-amz-sns-topic-arn': otherTopic } }),
        401,
        'CALLBACK_SIGNATURE_INVALID',
      ],
    ];
    it.each(cases)('%s: refused, nothing changes, 4579 logged', async (_name, tamper, status, code) => {
      const invitationId = await start();
      const envelope = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey);
      const tampered = tamper(envelope) as any;
      const before = await ses.test.snapshot();
      const answer = tampered.headers
        ? await post(tampered.envelope, tampered.headers)
        : await post(tampered);
      expect(answer).toMatchObject({ status, code });
      expect(await ses.test.snapshot()).toBe(before);
      expect(logged(4579)).toBe(1);
      expect((await post(envelope)).status).toBe(200);
    });

    it('UnsubscribeURL is not signed: a changed one still verifies', async () => {
      const invitationId = await start();
      const envelope = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey);
      expect(
        (await post({ ...envelope, UnsubscribeURL: 'https://sns.us-east-1.amazonaws.com/?x' })).status,
      ).toBe(200);
    });

    it.each(['Token', 'SubscribeURL', 'Message'] as const)(
      'an UnsubscribeConfirmation with a changed %s is refused (its Token and SubscribeURL are signed)',
      async (field) => {
        await start();
        const envelope = confirmation('UnsubscribeConfirmation', pki.leafKey);
        expect(await post({ ...envelope, [field]: `${envelope[field]}x` })).toMatchObject({
          status: 401,
          code: 'CALLBACK_SIGNATURE_INVALID',
        });
        expect(logged(4584)).toBe(0);
      },
    );
  });
});
