import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { governanceDeliveryPostureKey } from '@corekit/tenant-governance';
import { callbackLifecycleAdapter } from '../../callback-kit/src/test-support/callback-lifecycle-adapter';
import { signDeliveryStatusCallback } from './callback-signature';
import { governanceWebOperationIds, mapTenantGovernanceEndpoints } from './map-tenant-governance-endpoints';
import { testSigningSecret } from './test-support/governance-web-host';

const surfaceId = 'tenant-invitation-delivery-status-http-endpoints';

describePackLifecycleConformance(
  callbackLifecycleAdapter({
    name: 'tenant-governance-web delivery-status callback',
    operationId: governanceWebOperationIds.callback,
    surfaceId,
    replayCode: 'CALLBACK_REPLAYED',
    register: (builder) =>
      mapTenantGovernanceEndpoints(builder, {
        TenantInvitationDeliveryStatusCallbackSigningSecret: testSigningSecret,
        TenantInvitationDeliveryStatusCallbackSigningKeyId: 'key-2030',
        // No sender in these engines: the events carry no provider message id to match.
        RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch: false,
      }),
    // A later delivery of the same event is another request body (here: its whitespace), signed now.
    request(eventId, context, attempt) {
      const body = {
        observations: [{ providerKey: 'relay', providerEventId: eventId, status: 'delivered', ...context }],
      };
      const raw = `${JSON.stringify(body)}${' '.repeat(attempt)}`;
      const timestamp = Math.floor(Date.now() / 1000);
      return {
        raw: Buffer.from(raw),
        headers: {
          'content-type': 'application/json',
          'x-core-callback-signature': signDeliveryStatusCallback(testSigningSecret, timestamp, raw),
          'x-core-callback-signature-timestamp': String(timestamp),
          'x-core-callback-key-id': 'key-2030',
        },
      };
    },
    posture(engine) {
      const metadata = engine.technologySurfaces().find((entry) => entry.id === surfaceId)?.metadata;
      const delivery = engine.resolve(governanceDeliveryPostureKey)?.invitationFields();
      return {
        replayDurability: metadata?.replayProtectionDurability,
        idempotencyDurability: delivery?.observationStoreDurability,
      };
    },
  }),
);
