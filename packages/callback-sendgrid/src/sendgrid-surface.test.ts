import { startCallbackEngine } from '../../callback-kit/src/test-support/callback-test-engine';
import {
  mapSendGridStatusCallbacks,
  sendGridCallbackOperationId as op,
  sendGridCallbackSurfaceId,
} from './index';
import { sendGridEvent, sendGridTestKey } from './test-support/sendgrid-signing';
import { sendGridCallbackFixture } from './test-support/sendgrid-callback-fixture';

const sendgrid = sendGridCallbackFixture();
const { start, signed } = sendgrid;

describe('SendGrid callback registration and surface', () => {
  it('refuses a missing public key, a bad key, unknown keys and a second registration at startup', async () => {
    await expect(startCallbackEngine((builder) => mapSendGridStatusCallbacks(builder, {}))).rejects.toThrow(
      /SignedEventWebhookPublicKey/,
    );
    await expect(
      startCallbackEngine((builder) =>
        mapSendGridStatusCallbacks(builder, { SignedEventWebhookPublicKey: 'bm90IGEga2V5' }),
      ),
    ).rejects.toThrow(/P-256/);
    await expect(
      startCallbackEngine((builder) =>
        mapSendGridStatusCallbacks(builder, { RequireSignedEventWebhooks: false } as never),
      ),
    ).rejects.toThrow(/RequireSignedEventWebhooks/);
    const key = sendGridTestKey();
    await expect(
      startCallbackEngine((builder) => {
        mapSendGridStatusCallbacks(builder, { SignedEventWebhookPublicKey: key.publicKey });
        mapSendGridStatusCallbacks(builder, { SignedEventWebhookPublicKey: key.publicKey });
      }),
    ).rejects.toMatchObject({ code: 'ALREADY_REGISTERED' });
  });

  it('reports every surface key and never the public key, a signature or an identifier', async () => {
    const key = await start({ StatusCallbackAuthorizationPolicy: 'delivery-callbacks' });
    const invitationId = await sendgrid.test.invite();
    const request = signed([sendGridEvent('e1', 'delivered', { tenantId: 'acme', invitationId })]);
    await sendgrid.test.invoke(op, request);
    const surface = sendgrid.test.engine
      .technologySurfaces()
      .find((entry) => entry.id === sendGridCallbackSurfaceId)!;
    expect(surface.metadata).toMatchObject({
      endpoint: {
        mapped: true,
        disabled: false,
        method: 'POST',
        routePattern: '/engine/tenant-invitations/delivery-status/sendgrid',
      },
      authorization: { required: true, policy: 'delivery-callbacks', posture: 'fail-closed' },
      limits: { maxRequestBodyBytes: 1048576, maxEventsPerRequest: 1000 },
      signature: { configured: true, algorithm: 'ECDSA-P256-SHA256', toleranceSeconds: 300 },
      replayProtection: {
        configured: true,
        retentionSeconds: 600,
        cacheLimit: 10000,
        scope: 'process-local',
        durability: 'process-memory',
      },
      eventIdIdempotency: { configured: true, backing: 'observation-store' },
      counters: { requests: 1, verified: 1, eventsReconciled: 1 },
    });
    const text = JSON.stringify(sendgrid.test.engine.technologySurfaces());
    for (const secret of [
      key.publicKey,
      request.headers['x-twilio-email-event-webhook-signature']!,
      invitationId,
      'invitee@example.test',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
