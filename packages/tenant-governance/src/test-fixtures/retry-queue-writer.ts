// Child process of the retry-queue SIGKILL test: governance with a failing sender and the retry queue in a
// local file; invites and dispatches in a tight loop, printing `queued <n>` once each failure is queued.
import { createEngineBuilder } from '@corekit/engine-core';
import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, addTenantGovernanceDelivery } from '../index';

async function main(): Promise<void> {
  const builder = createEngineBuilder({
    contentRoot: process.env.CONTENT_ROOT!,
    environment: {},
    logger: { log: () => undefined },
  });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  const delivery = addTenantGovernanceDelivery(builder, {
    EnableInvitationDeliveryRetryQueue: true,
    InvitationDeliveryRetryMaxItems: 100_000,
    InvitationDeliveryRetryQueueFilePath: process.env.QUEUE_FILE!,
  });
  delivery.senders.add({
    id: 'down',
    supportedChannels: ['email'],
    send: async () => ({
      outcome: 'sender-failed',
      reason: 'http-status-503',
      metadata: { padding: 'x'.repeat(150) },
    }),
  });
  const engine = builder.build();
  await engine.start();
  for (let n = 1; ; n++) {
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: `user-${n}@example.test`,
      roles: ['member'],
    });
    const result = await delivery.dispatcher.dispatch({
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
    });
    if (!result.outcomes[0].retryQueued) throw new Error('not queued');
    process.stdout.write(`queued ${n}\n`);
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
