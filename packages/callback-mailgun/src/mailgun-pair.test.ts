import { addMailgunInvitationDelivery } from '@corekit/sender-mailgun';
import { mailgunEventDataFrom, startMailgunFake } from '@corekit/testing/fakes/mail-providers';
import { describeSenderCallbackPair } from '@corekit/testing/sender-callback-pair';
import { startPairRun } from '../../callback-kit/src/test-support/pair-run';
import { mailgunCallbackOperationId, mapMailgunStatusCallbacks } from './index';
import { mailgunSignature, mailgunTestKey } from './test-support/mailgun-signing';

const domain = 'mg.core.example';

describeSenderCallbackPair({
  title: 'Mailgun sender ↔ Mailgun webhook',
  start: (tenants) =>
    startPairRun({
      tenants,
      provider: () => startMailgunFake(domain),
      operationId: mailgunCallbackOperationId,
      senderId: 'mailgun',
      register(provider, builder, now) {
        addMailgunInvitationDelivery(builder, {
          BaseUrl: provider.url,
          DomainName: domain,
          ApiKey: 'pair-test-key',
          FromAddress: `invitations@${domain}`,
          Tags: ['invitation'],
          Variables: { campaign: 'spring' },
        });
        mapMailgunStatusCallbacks(
          builder,
          { WebhookSigningKey: mailgunTestKey, RequireProviderMessageMatch: true },
          { now },
        );
      },
    }),
  async webhook(exchange, status, eventId, { echoContext }) {
    const body = {
      signature: mailgunSignature(Math.floor(Date.now() / 1000)),
      'event-data': await mailgunEventDataFrom(exchange, status, eventId, echoContext),
    };
    return { raw: Buffer.from(JSON.stringify(body)), headers: { 'content-type': 'application/json' } };
  },
  absentContext: { status: 200, outcome: 'skipped-no-context' },
});
