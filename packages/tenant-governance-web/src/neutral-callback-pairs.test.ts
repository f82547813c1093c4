import { decodeContextValue } from '@corekit/callback-kit';
import { addMicrosoftGraphInvitationDelivery } from '@corekit/sender-graph';
import { addHttpInvitationDelivery } from '@corekit/sender-http';
import {
  graphMessageHeaders,
  neutralObservation,
  startGraphFake,
  startWebhookReceiverFake,
  webhookBodyFields,
} from '@corekit/testing/fakes/mail-providers';
import { describeSenderCallbackPair, type ProviderWebhook } from '@corekit/testing/sender-callback-pair';
import { startPairRun } from '../../callback-kit/src/test-support/pair-run';
import { signDeliveryStatusCallback } from './callback-signature';
import { governanceWebOperationIds, mapTenantGovernanceEndpoints } from './map-tenant-governance-endpoints';
import { testSigningSecret } from './test-support/governance-web-host';

/** The neutral callback as a receiver posts it: one observation, signed with the shared secret. */
function signed(observation: Record<string, unknown>): ProviderWebhook {
  const raw = Buffer.from(JSON.stringify({ observations: [observation] }));
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    raw,
    headers: {
      'content-type': 'application/json',
      'x-core-callback-signature': signDeliveryStatusCallback(testSigningSecret, timestamp, raw),
      'x-core-callback-signature-timestamp': String(timestamp),
    },
  };
}

const neutralOutcomes = (body: unknown) =>
  ((body as { events?: Array<{ outcome: string }> }).events ?? []).map((item) => item.outcome);

/** The provider-neutral callback with a signing secret; provider-message match stays on (the default). */
function mapNeutralCallback(builder: Parameters<typeof mapTenantGovernanceEndpoints>[0], now: () => Date) {
  mapTenantGovernanceEndpoints(
    builder,
    { TenantInvitationDeliveryStatusCallbackSigningSecret: testSigningSecret },
    { now },
  );
}

describeSenderCallbackPair({
  title: 'HTTP webhook sender ↔ provider-neutral callback',
  start: (tenants) =>
    startPairRun({
      tenants,
      provider: () => startWebhookReceiverFake('/invitations'),
      operationId: governanceWebOperationIds.callback,
      senderId: 'http-webhook',
      outcomesOf: neutralOutcomes,
      register(provider, builder, now) {
        addHttpInvitationDelivery(builder, { Endpoint: `${provider.url}/invitations` });
        mapNeutralCallback(builder, now);
      },
    }),
  // The receiver names the message by the body's messageId (it answered no message-id header).
  webhook: (exchange, status, eventId, { echoContext }) =>
    signed(neutralObservation('relay', webhookBodyFields(exchange), status, eventId, echoContext)),
  absentContext: { status: 400 },
});

describeSenderCallbackPair({
  title: 'Microsoft Graph sender ↔ provider-neutral callback',
  start: (tenants) =>
    startPairRun({
      tenants,
      provider: () => startGraphFake('/v1.0/users/sender%40core.example/sendMail'),
      operationId: governanceWebOperationIds.callback,
      senderId: 'microsoft-graph',
      outcomesOf: neutralOutcomes,
      register(provider, builder, now) {
        addMicrosoftGraphInvitationDelivery(builder, {
          BaseUrl: provider.url,
          AccessToken: 'pair-test-token',
          SenderUserId: 'sender@core.example',
        });
        mapNeutralCallback(builder, now);
      },
    }),
  // Graph answers no message id: a receiver (a mailbox rule, a message trace) reads the x-core-* headers.
  webhook(exchange, status, eventId, { echoContext }) {
    const headers = graphMessageHeaders(exchange);
    const read = (name: string) => (headers[name] ? decodeContextValue(headers[name]) : undefined);
    const fields = {
      tenantId: read('x-core-tenant-id'),
      invitationId: read('x-core-invitation-id'),
      providerMessageId: read('x-core-message-id'),
    };
    return signed(neutralObservation('graph-trace', fields, status, eventId, echoContext));
  },
  absentContext: { status: 400 },
});
