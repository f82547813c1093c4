import { expireOverdueInvitations } from './invitation-expiry-sweep';
import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});

describe('invitation expiry sweep', () => {
  it('writes down each overdue live invitation once (with an expire audit entry) and leaves the others', async () => {
    current = await startGovernance();
    const { context, governance } = current;
    const invite = (inviteeId: string, expiresInSeconds: number) =>
      governance.execute({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'user',
        inviteeId,
        roles: ['member'],
        expiresInSeconds,
      });
    await invite('soon', 60);
    await invite('later', 3600);
    const revoked = await invite('revoked', 60);
    await governance.execute({
      command: 'revoke',
      tenantId: 'acme',
      invitationId: revoked.invitation!.invitationId,
    });
    current.advance(61);
    expect(await expireOverdueInvitations(context)).toBe(1);
    expect(await expireOverdueInvitations(context)).toBe(0);
    const statuses = (await context.invitations.list('acme/')).map((item) => [item.inviteeId, item.status]);
    expect(Object.fromEntries(statuses)).toEqual({ soon: 'expired', later: 'pending', revoked: 'revoked' });
    const expiries = (await context.audit.list()).filter((entry) => entry.value.command === 'expire');
    expect(expiries.map((entry) => entry.value.actor)).toEqual([null]);
  });
});
