import { createHmac, timingSafeEqual } from 'node:crypto';
import { notifierConformanceSuite } from '@corekit/testing/notifier-conformance';
import { startNotifierService } from '@corekit/testing/notifier-service';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import { addWebhookNotifier, signWebhook } from './index';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/**
 * A receiver that verifies like the Standard Webhooks libraries do: the three headers present, the timestamp
 * within five minutes, one of the space-separated `v1,` signatures equal (constant time) to its own HMAC.
 */
function verifiesSignature(request: RecordedHttpRequest): boolean {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  const signatures = request.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(request.bytes).digest();
  return signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('Standard Webhooks signature', () => {
  it('matches the specification test vector (computed independently with Python hmac)', () => {
    // python3: base64.b64encode(hmac.new(b64decode('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
    //   b'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}', sha256).digest())
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('refuses a secret that is not whsec_ base64, naming the key path', () => {
    const { builder } = createTestEngineBuilder();
    expect(() =>
      addWebhookNotifier(builder, {
        Targets: [{ Id: 'bad', Url: 'http://127.0.0.1:1/', Secret: 'plain-text' }],
      }),
    ).toThrow(/Engine:Alerts:Notifiers:Webhook:Targets:0:Secret must be "whsec_"/);
  });
});

notifierConformanceSuite({
  kind: 'Webhook',
  add: addWebhookNotifier as never,
  startService: () =>
    startNotifierService((request) =>
      request.method === 'POST' && request.path === '/alerts' && verifiesSignature(request)
        ? { status: 204 }
        : { status: 401, body: { error: 'signature verification failed' } },
    ),
  target: (url) => ({ Url: `${url}/alerts`, Secret: secret }),
  secret,
  verify: (request, notification) => {
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toBe(notification.notificationId);
    expect(JSON.parse(request.body)).toEqual(notification);
  },
});
