import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { createWebHost } from '@corekit/web-host';
import { addGovernanceDeliveryDemo } from './governance-delivery-demo';
import {
  addGovernanceWebDemo,
  demoCallbackSignature,
  governanceDemoAuthorize,
  governanceDemoCredentials as demo,
} from './governance-web-demo';
import { addTenancyDemo } from './tenancy-demo';

it('runs an invitation through its lifecycle over HTTP behind the demo token and a signed callback', async () => {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'governance-web-demo-'));
  const { builder, logger } = createTestEngineBuilder();
  addTenancyDemo(builder, { dataDirectory: path.join(dataDirectory, 'stores') });
  addGovernanceDeliveryDemo(builder, { dataDirectory });
  addGovernanceWebDemo(builder);
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: (request, requirement) =>
      governanceDemoAuthorize(request.headers, requirement?.policy ?? null) ?? false,
  });
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  const post = async (route: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${demo.bearerToken}`,
        ...headers,
      },
      body,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  try {
    expect(logger.text()).toContain(`Bearer ${demo.bearerToken}`);
    const invited = await post(
      '/engine/tenant-administration/commands',
      JSON.stringify({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: 'new@example.test',
        roles: ['member'],
      }),
    );
    expect(invited.status).toBe(200);
    const invitationId = invited.body.invitation.invitationId as string;
    const dispatched = await post(
      '/engine/tenant-invitations/delivery-dispatches',
      JSON.stringify({ tenantId: 'acme', invitationId }),
    );
    expect(dispatched.body.invitationStatus).toBe('sent');
    const providerMessageId = dispatched.body.outcomes[0].providerMessageId as string;
    const raw = JSON.stringify({
      observations: [
        {
          providerKey: 'demo',
          providerEventId: 'evt-1',
          tenantId: 'acme',
          invitationId,
          status: 'delivered',
          providerMessageId,
        },
      ],
    });
    const headers = demoCallbackSignature(raw);
    const signed = await post('/engine/tenant-invitations/delivery-status', raw, headers);
    expect(signed.status).toBe(200);
    expect(signed.body.events[0]).toMatchObject({ outcome: 'reconciled', reconciledStatus: 'delivered' });
    expect((await post('/engine/tenant-invitations/delivery-status', raw, headers)).status).toBe(409);
    const read = await fetch(`${base}/engine/tenant-invitations/delivery-status/observations?tenantId=acme`, {
      headers: { authorization: `Bearer ${demo.bearerToken}` },
    });
    expect(((await read.json()) as any).totalMatched).toBe(1);
    // The invitee's acceptance code is in the message the demo sender wrote to its outbox, and only there.
    const message = readFileSync(
      path.join(dataDirectory, 'invitation-outbox', `acme-${invitationId}.txt`),
      'utf8',
    );
    const acceptanceSecret = /Acceptance code: ([A-Za-z0-9_-]{43})/.exec(message)![1]!;
    expect(logger.text()).not.toContain(acceptanceSecret);
    const accepted = await post(
      '/engine/tenant-administration/commands',
      JSON.stringify({
        command: 'accept',
        tenantId: 'acme',
        invitationId,
        principalId: 'user-42',
        acceptanceSecret,
      }),
    );
    expect(accepted.body.invitation).toMatchObject({
      status: 'accepted',
      acceptanceMode: 'acceptance-secret',
    });
    expect((await fetch(`${base}/engine/tenant-administration/commands`, { method: 'POST' })).status).toBe(
      401,
    );
  } finally {
    await host.close();
  }
});
