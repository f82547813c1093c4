import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMultiTenancy } from '@corekit/tenancy';
import { startFixture } from '@corekit/testing/child-process';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addTenantGovernance } from './add-tenant-governance';

function fileEngine(directory: string, contentRoot: string) {
  const { builder } = createTestEngineBuilder({
    contentRoot,
    configuration: { Engine: { Stores: { Provider: 'File', Directory: directory } } },
  });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  return { engine: builder.build(), governance };
}

it('governance state on the File store survives a SIGKILL mid-write, and accepted invitations keep their memberships', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'governance-kill-'));
  const directory = path.join(root, 'stores');
  const fixture = startFixture(path.resolve(__dirname, '..'), 'governance-writer.ts', {
    STORE_DIRECTORY: directory,
    CONTENT_ROOT: root,
  });
  await fixture.waitForLine('accepted 15', 60_000);
  fixture.child.kill('SIGKILL');
  expect(await fixture.exited).toBeNull();
  const acceptedBeforeKill = Number(
    fixture.lines
      .filter((line) => line.startsWith('accepted '))
      .pop()!
      .split(' ')[1],
  );

  expect(
    readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .sort(),
  ).toEqual([
    'tenant-governance-audit.json',
    'tenant-governance-invitations.json',
    'tenant-governance-memberships.json',
  ]);
  const { engine, governance } = fileEngine(directory, root);
  await engine.start();
  try {
    const invitations = await governance.listInvitations('acme');
    const memberships = await governance.listMemberships('acme');
    // Every acceptance the child reported is there, and every accepted invitation has its membership
    // (one killed between the two writes is repaired at start).
    for (let n = 1; n <= acceptedBeforeKill; n++) {
      expect(
        await governance.evaluate({ tenantId: 'acme', principalId: `user-${n}`, role: 'member' }),
      ).toMatchObject({ allowed: true });
    }
    for (const invitation of invitations.filter((item) => item.status === 'accepted')) {
      expect(
        memberships.some((membership) => membership.principalId === invitation.acceptedBy!.principalId),
      ).toBe(true);
    }
    expect(invitations.every((item) => ['pending', 'accepted'].includes(item.status))).toBe(true);
    const surface = engine.technologySurfaces().find((entry) => entry.id === 'tenant-memberships')!;
    expect(surface.metadata).toMatchObject({ storeKind: 'file', storeDurability: 'durable-local' });
    expect(surface.metadata.membershipCount).toBeGreaterThanOrEqual(acceptedBeforeKill);
    await governance.execute({
      command: 'add-member',
      tenantId: 'acme',
      principalId: 'after-restart',
      roles: ['viewer'],
    });
  } finally {
    await engine.stop();
  }

  const again = fileEngine(directory, root);
  await again.engine.start();
  try {
    expect(await again.governance.evaluate({ tenantId: 'acme', principalId: 'after-restart' })).toMatchObject(
      { allowed: true },
    );
  } finally {
    await again.engine.stop();
  }
});
