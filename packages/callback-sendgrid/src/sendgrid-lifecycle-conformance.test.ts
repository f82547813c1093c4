import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { callbackLifecycleAdapter } from '../../callback-kit/src/test-support/callback-lifecycle-adapter';
import { mapSendGridStatusCallbacks, sendGridCallbackOperationId, sendGridCallbackSurfaceId } from './index';
import { sendGridEvent, sendGridTestKey, signSendGrid } from './test-support/sendgrid-signing';

// One key pair for every engine of the run (a restarted process keeps its provider's key).
const key = sendGridTestKey();

describePackLifecycleConformance(
  callbackLifecycleAdapter({
    name: 'SendGrid status callbacks',
    operationId: sendGridCallbackOperationId,
    surfaceId: sendGridCallbackSurfaceId,
    register: (builder) =>
      mapSendGridStatusCallbacks(builder, { SignedEventWebhookPublicKey: key.publicKey }),
    request(eventId, context, attempt) {
      // A later delivery of the same event: SendGrid sends it again in another batch body.
      const extra = attempt === 0 ? {} : { sg_content_type: `retry-${attempt}` };
      const raw = Buffer.from(JSON.stringify([sendGridEvent(eventId, 'delivered', context, extra)]));
      return { raw, headers: signSendGrid(key.privateKey, raw, Math.floor(Date.now() / 1000)) };
    },
  }),
);
