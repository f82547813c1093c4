import fc from 'fast-check';
import {
  arbitraryCallbackRequest,
  arbitraryTampering,
  callbackFuzzProperty,
} from '@corekit/callback-kit/fuzz';
import {
  startCallbackEngine,
  type CallbackTestEngine,
} from '../../callback-kit/src/test-support/callback-test-engine';
import { mapSesStatusCallbacks, sesCallbackOperationId as op } from './index';
import {
  createSnsTestPki,
  loopbackLookup,
  notification,
  sesEvent,
  startSnsTestServer,
  topicArn,
} from './test-support/sns-test-pki';

const pki = createSnsTestPki();
const headers = ['x-amz-sns-message-type', 'x-amz-sns-message-id', 'x-amz-sns-topic-arn'];
let server: Awaited<ReturnType<typeof startSnsTestServer>>;
let test: CallbackTestEngine;
afterAll(async () => {
  await test?.close();
  await server?.close();
});

describe('SES callback parser under fuzzing', () => {
  it('never crashes, never answers 5xx, never reconciles unverified input, never changes state when refusing', async () => {
    server = await startSnsTestServer(pki, { '/SimpleNotificationService-test.pem': pki.leafCert });
    test = await startCallbackEngine(
      (builder, now) =>
        mapSesStatusCallbacks(
          builder,
          { AllowedSnsTopicArns: [topicArn], MaxRequestBodyBytes: 16_384 },
          { now, transport: { ca: pki.caCert, lookup: loopbackLookup, port: server.port } },
        ),
      { startMs: Date.now() },
    );
    const invitationId = await test.invite();
    const target = { invoke: (request: any) => test.invoke(op, request), snapshot: () => test.snapshot() };
    const seed = Buffer.from(
      JSON.stringify(notification(sesEvent('Send', { tenantId: 'acme', invitationId }), pki.leafKey)),
    );
    expect((await test.invoke(op, { raw: seed, headers: {} })).status).toBe(200);
    await fc.assert(callbackFuzzProperty(fc, arbitraryCallbackRequest(fc, headers), target), {
      numRuns: 300,
    });
    // Every variation of a received envelope is refused: signed fields fail the signature, the rest
    // (UnsubscribeURL, whitespace) hits the replay cache of topic + message id.
    const envelope = notification(sesEvent('Delivery', { tenantId: 'acme', invitationId }), pki.leafKey);
    const valid = {
      raw: Buffer.from(JSON.stringify(envelope)),
      headers: {
        'x-amz-sns-message-type': 'Notification',
        'x-amz-sns-message-id': envelope.MessageId,
        'x-amz-sns-topic-arn': topicArn,
      },
    };
    expect((await test.invoke(op, valid)).status).toBe(200);
    await fc.assert(callbackFuzzProperty(fc, arbitraryTampering(fc, valid, headers), target), {
      numRuns: 300,
    });
  });
});
