import { addMultiTenancy } from '@corekit/tenancy';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addTenantGovernance } from './add-tenant-governance';

function registered() {
  const { builder } = createTestEngineBuilder();
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  return { engine: builder.build(), governance };
}

describe('the governance service', () => {
  it('answers 503 GOVERNANCE_NOT_STARTED before the engine started, for commands, actions and reads', async () => {
    const { governance } = registered();
    const notStarted = expect.objectContaining({ kind: 'unavailable', code: 'GOVERNANCE_NOT_STARTED' });
    await expect(
      governance.execute({ command: 'add-member', tenantId: 'acme', principalId: 'u', roles: ['viewer'] }),
    ).rejects.toEqual(notStarted);
    await expect(governance.executeAction({ command: 'create' })).rejects.toEqual(notStarted);
    await expect(governance.listMemberships('acme')).rejects.toEqual(notStarted);
    await expect(
      governance.declareDomain({ tenantId: 'acme', domainName: 'a.example.test' }),
    ).rejects.toEqual(notStarted);
    await expect(governance.expireOverdueInvitations()).rejects.toEqual(notStarted);
  });

  it('seeds the records a module contributed before the start, and refuses contributions after it', async () => {
    const { engine, governance } = registered();
    governance.contribute('billing', {
      memberships: [{ tenantId: 'acme', principalId: 'biller', roles: ['viewer'] }],
    });
    await engine.start();
    try {
      expect(await governance.getMembership('acme', 'user', 'biller')).toMatchObject({
        status: 'active',
        sourceModuleId: 'billing',
      });
      expect(() => governance.contribute('late', {})).toThrow(
        expect.objectContaining({ code: 'GOVERNANCE_ALREADY_STARTED' }),
      );
      const sent = governance.markInvitationSent('acme', 'missing');
      await expect(sent).rejects.toEqual(expect.objectContaining({ code: 'INVITATION_NOT_FOUND' }));
    } finally {
      await engine.stop();
    }
  });
});
