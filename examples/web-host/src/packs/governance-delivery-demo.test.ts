import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addGovernanceDeliveryDemo } from './governance-delivery-demo';
import { addTenancyDemo } from './tenancy-demo';

it('the delivery demo dispatches an invitation through the log outbox and marks it sent', async () => {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'delivery-demo-'));
  const { builder, logger } = createTestEngineBuilder();
  const { governance } = addTenancyDemo(builder, { dataDirectory: path.join(dataDirectory, 'stores') });
  const delivery = addGovernanceDeliveryDemo(builder, { dataDirectory });
  const engine = builder.build();
  await engine.start();
  try {
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
    expect(result.outcomes).toEqual([
      expect.objectContaining({ senderId: 'demo-log-outbox', outcome: 'dispatched' }),
    ]);
    expect(result.invitationStatus).toBe('sent');
    expect(logger.text()).not.toContain('demo-person@example.test');
  } finally {
    await engine.stop();
  }
});
