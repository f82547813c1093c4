import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { callbackLifecycleAdapter } from '../../callback-kit/src/test-support/callback-lifecycle-adapter';
import { mailgunCallbackOperationId, mailgunCallbackSurfaceId, mapMailgunStatusCallbacks } from './index';
import { mailgunItem, mailgunTestKey } from './test-support/mailgun-signing';

describePackLifecycleConformance(
  callbackLifecycleAdapter({
    name: 'Mailgun status callbacks',
    operationId: mailgunCallbackOperationId,
    surfaceId: mailgunCallbackSurfaceId,
    register: (builder) => mapMailgunStatusCallbacks(builder, { WebhookSigningKey: mailgunTestKey }),
    // Every call signs with a fresh token: a later delivery of the same event.
    request: (eventId, context) => ({
      raw: Buffer.from(
        JSON.stringify([mailgunItem(eventId, 'delivered', Math.floor(Date.now() / 1000), context)]),
      ),
      headers: { 'content-type': 'application/json' },
    }),
  }),
);
