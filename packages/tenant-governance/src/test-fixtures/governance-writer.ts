// Child process of the SIGKILL test: a governance engine on the File store that invites and accepts in a
// tight loop, printing `accepted <n>` after each acceptance has been written.
import { createEngineBuilder } from '@corekit/engine-core';
import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance } from '../index';

async function main(): Promise<void> {
  const builder = createEngineBuilder({
    contentRoot: process.env.CONTENT_ROOT!,
    environment: {},
    configuration: { Engine: { Stores: { Provider: 'File', Directory: process.env.STORE_DIRECTORY! } } },
    logger: { log: () => undefined },
  });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  const engine = builder.build();
  await engine.start();
  for (let n = 1; ; n++) {
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'user',
      inviteeId: `user-${n}`,
      roles: ['member'],
    });
    await governance.execute({
      command: 'accept',
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
      principalId: `user-${n}`,
    });
    process.stdout.write(`accepted ${n}\n`);
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
