import { closeGovernanceWebHosts, startGovernanceWeb } from './test-support/governance-web-host';

const observations = '/engine/tenant-invitations/delivery-status/observations';

afterEach(closeGovernanceWebHosts);

describe('operator view invitation-delivery-attention', () => {
  it('is declared with the observation route and lists invitations whose delivery needs someone, across tenants', async () => {
    const host = await startGovernanceWeb({
      web: { RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch: false },
    });
    const view = host.engine
      .operatorViews()
      .find((candidate) => candidate.id === 'invitation-delivery-attention')!;
    expect(view).toMatchObject({
      listPath: observations,
      idField: 'key',
      entryPath: `${observations}?tenantId={tenantId}&invitationId={invitationId}`,
    });
    // Rows are scoped to tenants with the observation route's own policy: a caller sees what it may read there.
    expect(view.tenantAuthorization).toMatchObject({
      policy: 'tenant-governance.delivery-status-observations',
      kind: 'tenant-invitation-delivery-observations',
    });
    expect(view.tenantAuthorization!.tenantOf({ tenantId: 'globex' })).toBe('globex');
    expect(view.columns.map((column) => column.label)).toEqual([
      'Tenant',
      'Category',
      'Status',
      'Since',
      'Hint',
    ]);
    const rows = async () =>
      (await view.rows()).map((row) => [
        (row as { key: string }).key,
        ...view.columns.slice(0, 3).map((column) => column.value(row)),
      ]);
    expect(await rows()).toEqual([]);

    const delivered = await host.invite('one@example.test');
    const bounced = await host.invite('two@example.test');
    await host.delivery!.status.submit([
      {
        providerKey: 'relay',
        providerEventId: 'a1',
        tenantId: 'acme',
        invitationId: delivered.invitationId,
        status: 'delivered',
        providerMessageId: 'pm-one',
      },
      {
        providerKey: 'relay',
        providerEventId: 'b1',
        tenantId: 'acme',
        invitationId: bounced.invitationId,
        status: 'bounced',
        providerMessageId: 'pm-two',
      },
    ]);
    expect(await rows()).toEqual([[`acme/${bounced.invitationId}`, 'acme', 'bounced', 'bounced']]);
    // The row's link is the pack's own route, drilled down to that invitation (it authorizes as always).
    const anonymous = await host.request(
      `${observations}?tenantId=acme&invitationId=${bounced.invitationId}`,
    );
    expect([401, 403]).toContain(anonymous.status);
  });

  it('is not scoped to tenants when the observation route is served without authorization', async () => {
    const host = await startGovernanceWeb({
      web: { RequireTenantInvitationDeliveryStatusObservationAuthorization: false },
    });
    const view = host.engine
      .operatorViews()
      .find((candidate) => candidate.id === 'invitation-delivery-attention')!;
    expect(view.tenantAuthorization).toBeUndefined();
  });

  it('is not declared when the observation route is not mapped (no delivery registered)', async () => {
    const host = await startGovernanceWeb({ delivery: false });
    expect(host.engine.operatorViews().map((view) => view.id)).not.toContain('invitation-delivery-attention');
  });
});
