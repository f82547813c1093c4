import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileStoreProvider } from '@corekit/engine-core';
import {
  closeGovernanceWebHosts,
  startGovernanceWeb,
  testSigningSecret,
} from './test-support/governance-web-host';

afterEach(closeGovernanceWebHosts);

describe('the two http-endpoints surfaces', () => {
  it('report the replay cache posture of the store provider installed, even in code after the map call', async () => {
    const replayPosture = async (storeProvider?: FileStoreProvider) => {
      const host = await startGovernanceWeb({
        web: { TenantInvitationDeliveryStatusCallbackSigningSecret: testSigningSecret },
        ...(storeProvider ? { storeProvider } : {}),
      });
      const metadata = host.engine
        .technologySurfaces()
        .find((surface) => surface.id === 'tenant-invitation-delivery-status-http-endpoints')!.metadata;
      return [
        metadata.replayProtectionStoreKind,
        metadata.replayProtectionDurability,
        metadata.replayProtectionScope,
      ];
    };
    expect(await replayPosture()).toEqual(['memory', 'process-memory', 'process-local']);
    const directory = mkdtempSync(path.join(os.tmpdir(), 'governance-web-posture-'));
    expect(await replayPosture(new FileStoreProvider({ directory }))).toEqual([
      'file',
      'durable-local',
      'node-local',
    ]);
  });

  it('report every key and never a secret, a key id or an identifier', async () => {
    const host = await startGovernanceWeb({
      web: {
        TenantInvitationDeliveryStatusCallbackSigningSecret: testSigningSecret,
        TenantInvitationDeliveryStatusCallbackSigningKeyId: 'kid-distinctive-77',
        RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch: false,
      },
    });
    const invitation = await host.invite('leak-check@example.test');
    await host.governance.declareDomain({ tenantId: 'acme', domainName: 'leak-check.example' });
    const { challenge } = await host.delivery!.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'leak-check.example',
      method: 'http-file',
    });
    await host.delivery!.status.submit([
      {
        providerKey: 'relay',
        providerEventId: 'evt-leak',
        tenantId: 'acme',
        invitationId: invitation.invitationId,
        status: 'delivered',
        providerMessageId: 'pm-leak-42',
      },
    ]);
    const surfaces = host.engine.technologySurfaces();
    const admin = surfaces.find((surface) => surface.id === 'tenant-administration-http-endpoints')!;
    const status = surfaces.find(
      (surface) => surface.id === 'tenant-invitation-delivery-status-http-endpoints',
    )!;
    expect(admin.metadata).toMatchObject({
      routePattern: '/engine/tenant-administration/commands',
      method: 'POST',
      endpointState: 'mapped',
      requiresAuthorization: true,
      authorizationPolicy: 'tenant-governance.administration',
      excludedFromDescription: false,
      deliveryDispatchRoutePattern: '/engine/tenant-invitations/delivery-dispatches',
      httpProofFileRoutePattern: '/.well-known/core-domain-verification/:challengeId',
      httpProofFileRequiresAuthorization: false,
      publicOnboardingOwnership: 'application-managed',
      adminUiOwnership: 'application-managed',
      identityProviderSyncOwnership: 'application-managed',
    });
    expect(status.metadata).toMatchObject({
      callbackRoutePattern: '/engine/tenant-invitations/delivery-status',
      callbackMethod: 'POST',
      callbackEndpointState: 'mapped',
      callbackAuthorizationPolicy: 'tenant-governance.delivery-status-callback',
      providerMessageMatchRequired: false,
      signatureConfigured: true,
      signatureHeaderName: 'X-Core-Callback-Signature',
      signatureTimestampHeaderName: 'X-Core-Callback-Signature-Timestamp',
      signatureKeyIdHeaderName: 'X-Core-Callback-Key-Id',
      signatureKeyIdRequired: true,
      signatureToleranceSeconds: 300,
      replayProtectionEnabled: true,
      replayProtectionActive: true,
      replayRetentionSeconds: 600,
      replayCacheLimit: 10000,
      observationRoutePattern: '/engine/tenant-invitations/delivery-status/observations',
      observationMethod: 'GET',
      observationDefaultLimit: 50,
      observationMaxLimit: 200,
      providerCallbackInboxOwnership: 'application-managed',
    });
    const text = JSON.stringify([admin, status, host.engine.snapshot()]);
    for (const secret of [
      testSigningSecret,
      'kid-distinctive-77',
      invitation.invitationId,
      'leak-check@example.test',
      'leak-check.example',
      challenge.challengeId,
      challenge.token,
      'pm-leak-42',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('report disabled and configured states', async () => {
    const host = await startGovernanceWeb({
      delivery: false,
      web: { EnableTenantAdministrationCommandEndpoint: false },
    });
    const surfaces = host.engine.technologySurfaces();
    const admin = surfaces.find((surface) => surface.id === 'tenant-administration-http-endpoints')!;
    const status = surfaces.find(
      (surface) => surface.id === 'tenant-invitation-delivery-status-http-endpoints',
    )!;
    expect(admin.metadata).toMatchObject({
      endpointState: 'disabled',
      deliveryDispatchEndpointState: 'configured',
    });
    expect(status.metadata).toMatchObject({
      callbackEndpointState: 'configured',
      signatureConfigured: false,
      replayProtectionActive: false,
    });
  });

  it('refuses unknown keys naming the key, and a default limit over the maximum', async () => {
    await expect(
      startGovernanceWeb({ web: { TenantAdministrationCommandRoute: '/x' } as never }),
    ).rejects.toThrow(/TenantAdministrationCommandRoute/);
    await expect(
      startGovernanceWeb({
        web: {
          TenantInvitationDeliveryStatusObservationDefaultLimit: 300,
          TenantInvitationDeliveryStatusObservationMaxLimit: 100,
        },
      }),
    ).rejects.toThrow(/DefaultLimit/);
  });
});
