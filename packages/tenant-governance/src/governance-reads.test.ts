import { governanceReads } from './governance-reads';
import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});

describe('governance reads', () => {
  it('evaluate: allowed only for an active membership holding the role; a suspended one answers no roles', async () => {
    current = await startGovernance();
    const { context, governance } = current;
    const reads = governanceReads(context);
    await governance.execute({
      command: 'add-member',
      tenantId: 'acme',
      principalId: 'u1',
      roles: ['admin'],
    });
    expect(await reads.evaluate({ tenantId: 'acme', principalId: 'u1', role: 'admin' })).toEqual({
      allowed: true,
      status: 'active',
      roles: ['admin'],
    });
    expect(await reads.evaluate({ tenantId: 'acme', principalId: 'u1', role: 'owner' })).toMatchObject({
      allowed: false,
      status: 'active',
    });
    expect(await reads.evaluate({ tenantId: 'globex', principalId: 'u1' })).toEqual({
      allowed: false,
      status: 'not-member',
      roles: [],
    });
    await governance.execute({ command: 'suspend-member', tenantId: 'acme', principalId: 'u1' });
    expect(await reads.evaluate({ tenantId: 'acme', principalId: 'u1' })).toEqual({
      allowed: false,
      status: 'suspended',
      roles: [],
    });
  });

  it('an overdue invitation reads as expired (by id and in the list) before any sweep wrote it down', async () => {
    current = await startGovernance();
    const { context, governance } = current;
    const reads = governanceReads(context);
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'user',
      inviteeId: 'u2',
      roles: ['member'],
      expiresInSeconds: 60,
    });
    current.advance(61);
    expect((await reads.getInvitation('acme', invitation!.invitationId))?.status).toBe('expired');
    expect((await reads.listInvitations('acme')).map((item) => item.status)).toEqual(['expired']);
    expect((await context.invitations.get(`acme/${invitation!.invitationId}`))?.status).toBe('pending');
  });

  it('auditEntries answers the latest entries, newest first, at most the limit', async () => {
    current = await startGovernance();
    const { context, governance } = current;
    for (const principalId of ['a', 'b', 'c']) {
      await governance.execute({ command: 'add-member', tenantId: 'acme', principalId, roles: ['viewer'] });
      current.advance(1);
    }
    const entries = await governanceReads(context).auditEntries(2);
    expect(entries.map((entry) => entry.atUtc)).toEqual([
      '2030-01-01T00:00:02.000Z',
      '2030-01-01T00:00:01.000Z',
    ]);
  });
});
