import { createHmac, createPrivateKey, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeDeliveryContext } from '@corekit/callback-kit';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { createWebHost } from '@corekit/web-host';
import {
  addDeliveryCallbacksDemo,
  deliveryCallbacksDemoCredentials as demo,
} from './delivery-callbacks-demo';
import { addGovernanceDeliveryDemo } from './governance-delivery-demo';
import {
  addGovernanceWebDemo,
  governanceDemoAuthorize,
  governanceDemoCredentials,
} from './governance-web-demo';
import { addTenancyDemo } from './tenancy-demo';

it('dispatches an invitation, takes signed provider callbacks over HTTP and reads them from the observations endpoint', async () => {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'delivery-callbacks-demo-'));
  const { builder } = createTestEngineBuilder();
  addTenancyDemo(builder, { dataDirectory: path.join(dataDirectory, 'stores') });
  addGovernanceDeliveryDemo(builder, { dataDirectory });
  addGovernanceWebDemo(builder);
  const { sendGridPrivateKeyPath } = addDeliveryCallbacksDemo(builder, { dataDirectory });
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: (request, requirement) =>
      governanceDemoAuthorize(request.headers, requirement?.policy ?? null) ?? false,
  });
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  const authorization = `Bearer ${governanceDemoCredentials.bearerToken}`;
  const call = async (route: string, body?: Buffer | string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', authorization, ...headers },
      body,
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  try {
    const invited = await call(
      '/engine/tenant-administration/commands',
      JSON.stringify({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: 'cb@example.test',
        roles: ['member'],
      }),
    );
    const invitationId = invited.body.invitation.invitationId as string;
    const dispatched = await call(
      '/engine/tenant-invitations/delivery-dispatches',
      JSON.stringify({ tenantId: 'acme', invitationId }),
    );
    expect(dispatched.status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    // The context as the delivery context contract writes it (what our senders send).
    const context = encodeDeliveryContext({ tenantId: 'acme', invitationId }, 'text');
    const tags = encodeDeliveryContext({ tenantId: 'acme', invitationId }, 'tag');

    const sendGridBody = Buffer.from(
      JSON.stringify([
        { event: 'processed', sg_event_id: 'sg-1', sg_message_id: 'm.1', timestamp: now, ...context },
      ]),
    );
    const sendGridSignature = sign(
      'sha256',
      Buffer.concat([Buffer.from(String(now)), sendGridBody]),
      createPrivateKey(readFileSync(sendGridPrivateKeyPath)),
    );
    const sendGrid = await call('/engine/tenant-invitations/delivery-status/sendgrid', sendGridBody, {
      'X-Twilio-Email-Event-Webhook-Signature': sendGridSignature.toString('base64'),
      'X-Twilio-Email-Event-Webhook-Timestamp': String(now),
    });
    expect(sendGrid).toMatchObject({ status: 200, body: { accepted: 1 } });

    const token = randomBytes(25).toString('hex');
    const mailgunSignature = createHmac('sha256', demo.mailgunWebhookSigningKey)
      .update(`${now}${token}`)
      .digest('hex');
    const mailgun = await call(
      '/engine/tenant-invitations/delivery-status/mailgun',
      JSON.stringify({
        signature: { timestamp: String(now), token, signature: mailgunSignature },
        'event-data': { event: 'delivered', id: 'mg-1', timestamp: now, 'user-variables': context },
      }),
    );
    expect(mailgun).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect(
      (
        await call('/engine/tenant-invitations/delivery-status/mailgun', '{}', {
          authorization: 'Bearer wrong',
        })
      ).status,
    ).toBe(403);

    const ses = await call(
      '/engine/tenant-invitations/delivery-status/amazon-ses-sns',
      JSON.stringify({
        eventType: 'Complaint',
        mail: {
          messageId: 'ses-1',
          tags: Object.fromEntries(Object.entries(tags).map(([name, value]) => [name, [value]])),
        },
      }),
      { 'content-type': 'text/plain' },
    );
    expect(ses).toMatchObject({ status: 200, body: { accepted: 1 } });

    const read = await call(
      `/engine/tenant-invitations/delivery-status/observations?tenantId=acme&invitationId=${encodeURIComponent(invitationId)}`,
    );
    expect(read.status).toBe(200);
    expect(read.body.observations.map((entry: any) => entry.providerKey).sort()).toEqual([
      'amazon-ses-sns',
      'mailgun',
      'sendgrid',
    ]);
    expect(read.body.attention.map((item: any) => item.category)).toEqual(['suppressed']);
  } finally {
    await host.close();
  }
});
