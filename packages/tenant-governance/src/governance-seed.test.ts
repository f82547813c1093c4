import { actionKey, domainKey, invitationKey, membershipKey } from './governance-context';
import { seedConfiguredRecords } from './governance-seed';
import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});

const configured = {
  Memberships: [{ TenantId: 'acme', PrincipalId: 'owner-1', Roles: ['owner'] }],
  Invitations: [
    {
      Id: 'inv-1',
      TenantId: 'acme',
      InviteeKind: 'email' as const,
      InviteeId: 'Mixed@Example.test',
      Roles: ['member'],
    },
  ],
  Actions: [
    {
      Id: 'act-1',
      TenantId: 'globex',
      Kind: 'approval' as const,
      SubjectKind: 'tenant' as const,
      Title: 'Go live',
    },
  ],
  Domains: [{ TenantId: 'acme', DomainName: 'Acme.Example.test' }],
};

describe('seeding the configured records', () => {
  it('writes each configured record with configured origin: pending invitations with the default lifetime, normalized names', async () => {
    current = await startGovernance(configured);
    const { context } = current;
    expect(await context.memberships.get(membershipKey('acme', 'user', 'owner-1'))).toMatchObject({
      status: 'active',
      roles: ['owner'],
      origin: 'configured',
      sourceModuleId: null,
    });
    expect(await context.invitations.get(invitationKey('acme', 'inv-1'))).toMatchObject({
      status: 'pending',
      inviteeId: 'mixed@example.test',
      expiresAtUtc: '2030-01-08T00:00:00.000Z',
      origin: 'configured',
    });
    expect(await context.actions.get(actionKey('globex', 'act-1'))).toMatchObject({
      status: 'pending',
      subjectId: null,
      title: 'Go live',
    });
    expect(await context.domains.get(domainKey('acme.example.test'))).toMatchObject({
      status: 'declared',
      origin: 'configured',
    });
  });

  it('keeps a record already in the store as it is (a restart or another replica seeds again)', async () => {
    current = await startGovernance(configured);
    const { context, governance } = current;
    await governance.execute({ command: 'suspend-member', tenantId: 'acme', principalId: 'owner-1' });
    await governance.execute({ command: 'revoke', tenantId: 'acme', invitationId: 'inv-1' });
    current.advance(3600);
    await seedConfiguredRecords(context, []);
    expect((await context.memberships.get(membershipKey('acme', 'user', 'owner-1')))?.status).toBe(
      'suspended',
    );
    expect(await context.invitations.get(invitationKey('acme', 'inv-1'))).toMatchObject({
      status: 'revoked',
      version: 2,
    });
  });

  it("writes a module's contributed records with the module as their source", async () => {
    current = await startGovernance();
    const { context } = current;
    await seedConfiguredRecords(context, [
      {
        moduleId: 'billing',
        contribution: {
          memberships: [
            { tenantId: 'globex', principalKind: 'service', principalId: 'biller', roles: ['viewer'] },
          ],
          actions: [
            {
              id: 'a-9',
              tenantId: 'acme',
              kind: 'remediation',
              subjectKind: 'domain',
              subjectId: 'd',
              title: 'Fix',
            },
          ],
          domains: [{ tenantId: 'globex', domainName: 'Billing.Example.test' }],
        },
      },
    ]);
    expect(await context.memberships.get(membershipKey('globex', 'service', 'biller'))).toMatchObject({
      status: 'active',
      sourceModuleId: 'billing',
    });
    expect(await context.actions.get(actionKey('acme', 'a-9'))).toMatchObject({
      kind: 'remediation',
      subjectId: 'd',
      sourceModuleId: 'billing',
    });
    expect(await context.domains.get(domainKey('billing.example.test'))).toMatchObject({
      tenantId: 'globex',
      sourceModuleId: 'billing',
    });
  });
});
