import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHttpFakeServer } from '@corekit/testing/http-fake-server';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addGovernanceDeliveryDemo } from './governance-delivery-demo';
import { addInvitationSendersDemo } from './invitation-senders-demo';
import { addTenancyDemo } from './tenancy-demo';

async function startDemo(environment: Record<string, string>) {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'senders-demo-'));
  const { builder } = createTestEngineBuilder({ environment });
  const { governance } = addTenancyDemo(builder, { dataDirectory: path.join(dataDirectory, 'stores') });
  const delivery = addGovernanceDeliveryDemo(builder, { dataDirectory });
  const registered = addInvitationSendersDemo(builder);
  const engine = builder.build();
  await engine.start();
  return { engine, governance, delivery, registered };
}

it('registers no provider sender without configuration, so the host starts with the demo sender only', async () => {
  const { engine, registered, delivery } = await startDemo({});
  try {
    expect(registered).toEqual([]);
    expect(delivery.senders.list().map((sender) => sender.id)).toEqual(['demo-log-outbox']);
  } finally {
    await engine.stop();
  }
});

it('registers the HTTP webhook sender from environment variables and dispatches through it', async () => {
  const receiver = await startHttpFakeServer(() => ({ status: 202, headers: { 'X-Message-Id': 'hook-1' } }));
  const { engine, registered, governance, delivery } = await startDemo({
    Engine__MultiTenancy__Governance__HttpInvitationDelivery__Endpoint: `${receiver.url}/invitations`,
  });
  try {
    expect(registered).toEqual(['HttpInvitationDelivery']);
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'demo-person@example.test',
      roles: ['member'],
    });
    const result = await delivery.dispatcher.dispatch({
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
    });
    expect(result.outcomes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ senderId: 'demo-log-outbox', outcome: 'dispatched' }),
        expect.objectContaining({
          senderId: 'http-webhook',
          outcome: 'dispatched',
          providerMessageId: 'hook-1',
        }),
      ]),
    );
    expect(receiver.requests).toHaveLength(1);
  } finally {
    await engine.stop();
    await receiver.close();
  }
});
