import { invitationKey, membershipKey } from './governance-context';
import { repairAcceptedInvitations } from './governance-startup';
import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});

describe('governance start step', () => {
  it('grants the membership of an accepted invitation whose membership write was lost, once', async () => {
    current = await startGovernance();
    const { context, governance } = current;
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'user',
      inviteeId: 'u7',
      roles: ['member'],
    });
    const key = invitationKey('acme', invitation!.invitationId);
    const stored = (await context.invitations.get(key))!;
    // Accepted in the store, with no membership: a crash between the two writes.
    await context.invitations.write(
      key,
      {
        ...stored,
        status: 'accepted',
        acceptedAtUtc: '2030-01-01T00:00:00.000Z',
        acceptedBy: { principalKind: 'user', principalId: 'u7' },
      },
      stored.version,
    );
    expect(await repairAcceptedInvitations(context)).toBe(1);
    expect(await context.memberships.get(membershipKey('acme', 'user', 'u7'))).toMatchObject({
      status: 'active',
      roles: ['member'],
      invitationId: invitation!.invitationId,
    });
    expect(await repairAcceptedInvitations(context)).toBe(0);
  });

  it('the start logs the loaded counts (4511) with the repaired and expired counts', async () => {
    current = await startGovernance({
      Memberships: [{ TenantId: 'acme', PrincipalId: 'owner-1', Roles: ['owner'] }],
    });
    const [loaded] = current.logger.records.filter((record) => /state loaded:/.test(record.message));
    expect(loaded).toMatchObject({
      eventId: 4511,
      message: 'Tenant governance state loaded: 1 membership(s), 0 invitation(s), 0 action(s), 0 domain(s)',
      repairedMemberships: 0,
      expiredInvitations: 0,
    });
  });
});
