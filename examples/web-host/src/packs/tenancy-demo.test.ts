import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addTenancyDemo } from './tenancy-demo';

it('the tenancy demo resolves by header and host and keeps an invitation across a restart', async () => {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'tenancy-demo-'));
  const first = createTestEngineBuilder();
  const { tenancy, governance } = addTenancyDemo(first.builder, { dataDirectory });
  const engine = first.builder.build();
  await engine.start();
  let invitationId: string;
  try {
    expect(await tenancy.resolveTenant({ headers: { 'x-core-tenant-id': 'globex' } })).toMatchObject({
      tenant: { tenantId: 'globex' },
    });
    expect(await tenancy.resolveTenant({ headers: { host: 'acme.localhost:3000' } })).toMatchObject({
      tenant: { tenantId: 'acme' },
    });
    const invited = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'new@example.test',
      roles: ['member'],
    });
    invitationId = invited.invitation!.invitationId;
    await governance.execute({ command: 'mark-sent', tenantId: 'acme', invitationId });
  } finally {
    await engine.stop();
  }
  const second = createTestEngineBuilder();
  const restarted = addTenancyDemo(second.builder, { dataDirectory });
  const engine2 = second.builder.build();
  await engine2.start();
  try {
    expect((await restarted.governance.getInvitation('acme', invitationId))?.status).toBe('sent');
    const accepted = await restarted.governance.execute({
      command: 'accept',
      tenantId: 'acme',
      invitationId,
      principalId: 'new-user',
      onBehalf: true,
      actor: 'test-admin',
    });
    expect(accepted.membership?.status).toBe('active');
  } finally {
    await engine2.stop();
  }
});
