import { addAmazonSesInvitationDelivery } from '@corekit/sender-ses';
import { sesEventFrom, startSesFake } from '@corekit/testing/fakes/mail-providers';
import { describeSenderCallbackPair } from '@corekit/testing/sender-callback-pair';
import { startPairRun } from '../../callback-kit/src/test-support/pair-run';
import { mapSesStatusCallbacks, sesCallbackOperationId } from './index';
import {
  createSnsTestPki,
  loopbackLookup,
  notification,
  startSnsTestServer,
  topicArn,
} from './test-support/sns-test-pki';

const pki = createSnsTestPki();
let sns: Awaited<ReturnType<typeof startSnsTestServer>>;
beforeAll(async () => {
  sns = await startSnsTestServer(pki, { '/SimpleNotificationService-test.pem': pki.leafCert });
});
afterAll(async () => sns.close());

describeSenderCallbackPair({
  title: 'Amazon SES sender ↔ SES/SNS notifications',
  start: (tenants) =>
    startPairRun({
      tenants,
      provider: startSesFake,
      operationId: sesCallbackOperationId,
      senderId: 'amazon-ses',
      register(provider, builder, now) {
        addAmazonSesInvitationDelivery(
          builder,
          {
            RegionSystemName: 'us-east-1',
            ConfigurationSetName: 'invitations',
            FromAddress: 'invitations@core.example',
            Tags: { campaign: 'spring 2030' },
          },
          {
            clientConfig: {
              endpoint: provider.url,
              credentials: { accessKeyId: 'AKIAPAIRTEST', secretAccessKey: 'pair-test-secret' },
            },
          },
        );
        mapSesStatusCallbacks(
          builder,
          { AllowedSnsTopicArns: [topicArn], RequireProviderMessageMatch: true },
          { now, transport: { ca: pki.caCert, lookup: loopbackLookup, port: sns.port } },
        );
      },
    }),
  webhook(exchange, status, _eventId, { echoContext }) {
    // The SNS MessageId is the event id; `notification` numbers them.
    const envelope = notification(sesEventFrom(exchange, status, echoContext), pki.leafKey, {
      Timestamp: new Date().toISOString(),
    });
    return {
      raw: Buffer.from(JSON.stringify(envelope)),
      headers: {
        'content-type': 'text/plain; charset=UTF-8',
        'x-amz-sns-message-type': 'Notification',
        'x-amz-sns-message-id': envelope.MessageId,
        'x-amz-sns-topic-arn': topicArn,
      },
    };
  },
  absentContext: { status: 200, outcome: 'skipped-no-context' },
});
