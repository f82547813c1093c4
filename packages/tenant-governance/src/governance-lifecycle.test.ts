import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});

const expiryJob = (started: Started) =>
  started.engine.jobs().find((job) => job.id === 'tenant-governance.invitation-expiry');

describe('governance lifecycle', () => {
  it('registers the expiry sweep on its interval, owned by the registration; none with interval 0', async () => {
    current = await startGovernance({ InvitationExpirySweepIntervalSeconds: 90 });
    expect(expiryJob(current)).toMatchObject({ owner: '@corekit/tenant-governance', intervalMs: 90_000 });
    await current.engine.stop();
    current = await startGovernance({ InvitationExpirySweepIntervalSeconds: 0 });
    expect(expiryJob(current)).toBeUndefined();
  });

  it('the start loads the copies (store-on-write without a shared store) and the service answers', async () => {
    current = await startGovernance({
      Memberships: [{ TenantId: 'acme', PrincipalId: 'owner-1', Roles: ['owner'] }],
    });
    const { context, governance } = current;
    expect(context.memberships.values()).toHaveLength(1);
    expect(context.sharedState.freshness()).toMatchObject({
      summarySource: 'store-on-write',
      sharedStatePropagation: 'local',
    });
    expect(await governance.listMemberships('acme')).toHaveLength(1);
  });
});
