import { createHash } from 'node:crypto';
import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { callbackLifecycleAdapter } from '../../callback-kit/src/test-support/callback-lifecycle-adapter';
import { mapSesStatusCallbacks, sesCallbackOperationId, sesCallbackSurfaceId } from './index';
import {
  createSnsTestPki,
  loopbackLookup,
  notification,
  sesEvent,
  startSnsTestServer,
  topicArn,
} from './test-support/sns-test-pki';

// The local SNS HTTPS server serves the signing certificate to every engine of the run.
const pki = createSnsTestPki();
let server: Awaited<ReturnType<typeof startSnsTestServer>>;
beforeAll(async () => {
  server = await startSnsTestServer(pki, { '/SimpleNotificationService-test.pem': pki.leafCert });
});
afterAll(async () => server?.close());

/** The SNS MessageId of work `id` (SNS delivers one message with one id, again and again). */
const messageId = (id: string) =>
  `00000000-0000-4000-8000-${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;

describePackLifecycleConformance(
  callbackLifecycleAdapter({
    name: 'Amazon SES status callbacks',
    operationId: sesCallbackOperationId,
    surfaceId: sesCallbackSurfaceId,
    register: (builder) =>
      mapSesStatusCallbacks(
        builder,
        { AllowedSnsTopicArns: [topicArn] },
        { transport: { ca: pki.caCert, lookup: loopbackLookup, port: server.port } },
      ),
    // Every call signs the same message again with a new Timestamp: SNS redelivering it.
    request: (eventId, context) => ({
      raw: Buffer.from(
        JSON.stringify(
          notification(sesEvent('Delivery', context), pki.leafKey, { MessageId: messageId(eventId) }),
        ),
      ),
      headers: { 'content-type': 'text/plain; charset=UTF-8' },
    }),
  }),
);
