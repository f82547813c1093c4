import { addSendGridInvitationDelivery } from '@corekit/sender-sendgrid';
import { sendGridEventFrom, startSendGridFake } from '@corekit/testing/fakes/mail-providers';
import { describeSenderCallbackPair } from '@corekit/testing/sender-callback-pair';
import { startPairRun } from '../../callback-kit/src/test-support/pair-run';
import { mapSendGridStatusCallbacks, sendGridCallbackOperationId } from './index';
import { sendGridTestKey, signSendGrid } from './test-support/sendgrid-signing';

const key = sendGridTestKey();

describeSenderCallbackPair({
  title: 'SendGrid sender ↔ SendGrid event webhook',
  start: (tenants) =>
    startPairRun({
      tenants,
      provider: startSendGridFake,
      operationId: sendGridCallbackOperationId,
      senderId: 'sendgrid',
      register(provider, builder, now) {
        addSendGridInvitationDelivery(builder, {
          BaseUrl: provider.url,
          ApiKey: 'SG.pair-test-key',
          FromAddress: 'invitations@core.example',
          CustomArgs: { campaign: 'spring' },
        });
        mapSendGridStatusCallbacks(
          builder,
          { SignedEventWebhookPublicKey: key.publicKey, RequireProviderMessageMatch: true },
          { now },
        );
      },
    }),
  webhook(exchange, status, eventId, { echoContext }) {
    const raw = Buffer.from(JSON.stringify([sendGridEventFrom(exchange, status, eventId, echoContext)]));
    return { raw, headers: signSendGrid(key.privateKey, raw, Math.floor(Date.now() / 1000)) };
  },
  absentContext: { status: 200, outcome: 'skipped-no-context' },
});
