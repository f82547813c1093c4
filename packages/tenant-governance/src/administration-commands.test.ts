import { startGovernance } from './test-support';

type Started = Awaited<ReturnType<typeof startGovernance>>;
let current: Started | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});
async function started(...args: Parameters<typeof startGovernance>) {
  current = await startGovernance(...args);
  return current;
}
const refusal = (kind: string, code: string) => expect.objectContaining({ kind, code });

describe('invitation lifecycle', () => {
  it('invite → mark-sent → accept creates an active membership, each answered with the record and an audit entry', async () => {
    const { governance } = await started();
    const invited = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'New.Person@Example.test',
      roles: ['member'],
      actor: 'admin-1',
      correlationId: 'c-1',
    });
    expect(invited.invitation).toMatchObject({
      status: 'pending',
      inviteeId: 'new.person@example.test',
      roles: ['member'],
    });
    expect(invited.invitation!.expiresAtUtc).toBe('2030-01-08T00:00:00.000Z');
    expect(invited.audit).toMatchObject({
      command: 'invite',
      recordKind: 'invitation',
      fromStatus: null,
      toStatus: 'pending',
      actor: 'admin-1',
      correlationId: 'c-1',
    });
    const invitationId = invited.invitation!.invitationId;
    const sent = await governance.execute({ command: 'mark-sent', tenantId: 'acme', invitationId });
    expect(sent.invitation).toMatchObject({ status: 'sent', sendCount: 1 });
    expect(sent.audit).toMatchObject({ fromStatus: 'pending', toStatus: 'sent' });
    const accepted = await governance.execute({
      command: 'accept',
      tenantId: 'acme',
      invitationId,
      principalId: 'user-9',
      onBehalf: true,
      actor: 'admin-1',
    });
    expect(accepted.invitation).toMatchObject({
      status: 'accepted',
      acceptedBy: { principalKind: 'user', principalId: 'user-9' },
      acceptanceMode: 'on-behalf',
      acceptedByActor: 'admin-1',
    });
    expect(accepted.membership).toMatchObject({ status: 'active', roles: ['member'], invitationId });
    expect(await governance.evaluate({ tenantId: 'acme', principalId: 'user-9', role: 'member' })).toEqual({
      allowed: true,
      status: 'active',
      roles: ['member'],
    });
    await expect(governance.execute({ command: 'revoke', tenantId: 'acme', invitationId })).rejects.toEqual(
      refusal('conflict', 'INVITATION_TRANSITION_INVALID'),
    );
    expect((await governance.auditEntries()).map((entry) => entry.command)).toEqual([
      'accept',
      'mark-sent',
      'invite',
    ]);
  });

  it('resend renews the expiry and returns to pending; revoke ends it; expiry ends an overdue one', async () => {
    const { governance, advance } = await started({ InvitationLifetimeSeconds: 3600 });
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'user',
      inviteeId: 'u1',
      roles: ['viewer'],
    });
    await governance.execute({
      command: 'mark-sent',
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
    });
    advance(1800);
    const resent = await governance.execute({
      command: 'resend',
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
    });
    expect(resent.invitation).toMatchObject({
      status: 'pending',
      resendCount: 1,
      expiresAtUtc: '2030-01-01T01:30:00.000Z',
    });
    const revoked = await governance.execute({
      command: 'revoke',
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
    });
    expect(revoked.invitation).toMatchObject({ status: 'revoked' });

    const second = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'user',
      inviteeId: 'u1',
      roles: ['viewer'],
    });
    advance(3601);
    expect((await governance.getInvitation('acme', second.invitation!.invitationId))?.status).toBe('expired');
    await expect(
      governance.execute({
        command: 'accept',
        tenantId: 'acme',
        invitationId: second.invitation!.invitationId,
        principalId: 'u1',
      }),
    ).rejects.toEqual(refusal('conflict', 'INVITATION_EXPIRED'));
    expect((await governance.auditEntries(1))[0]).toMatchObject({
      command: 'expire',
      toStatus: 'expired',
      actor: null,
    });
    expect(await governance.expireOverdueInvitations()).toBe(0);
  });

  it('refuses invalid invitations with stable codes', async () => {
    const { governance } = await started();
    const invite = (fields: Record<string, unknown>) =>
      governance.execute({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: 'a@b.test',
        roles: ['member'],
        ...fields,
      });
    await expect(invite({ tenantId: 'nowhere' })).rejects.toEqual(refusal('not-found', 'TENANT_NOT_FOUND'));
    await expect(invite({ inviteeId: 'not-an-email' })).rejects.toEqual(
      refusal('invalid-input', 'INVITEE_INVALID'),
    );
    await expect(invite({ roles: ['emperor'] })).rejects.toEqual(refusal('invalid-input', 'ROLE_UNKNOWN'));
    await expect(invite({ roles: [] })).rejects.toEqual(
      refusal('invalid-input', 'GOVERNANCE_REQUEST_INVALID'),
    );
    await expect(invite({ surprise: true })).rejects.toEqual(
      refusal('invalid-input', 'GOVERNANCE_REQUEST_INVALID'),
    );
    await expect(invite({ expiresInSeconds: 99_999_999 })).rejects.toEqual(
      refusal('invalid-input', 'INVITATION_LIFETIME_TOO_LONG'),
    );
    await expect(governance.execute({ command: 'explode', tenantId: 'acme' })).rejects.toEqual(
      refusal('invalid-input', 'GOVERNANCE_REQUEST_INVALID'),
    );
    await invite({});
    await expect(invite({ inviteeId: 'A@B.test' })).rejects.toEqual(
      refusal('conflict', 'INVITATION_DUPLICATE'),
    );
    await expect(
      governance.execute({ command: 'mark-sent', tenantId: 'acme', invitationId: 'missing' }),
    ).rejects.toEqual(refusal('not-found', 'INVITATION_NOT_FOUND'));
  });

  it('a user invitation is accepted only by that user, and a stale expectedVersion is refused', async () => {
    const { governance } = await started();
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'globex',
      inviteeKind: 'user',
      inviteeId: 'u7',
      roles: ['admin'],
    });
    const invitationId = invitation!.invitationId;
    await expect(
      governance.execute({ command: 'accept', tenantId: 'globex', invitationId, principalId: 'u8' }),
    ).rejects.toEqual(refusal('forbidden', 'INVITATION_PRINCIPAL_MISMATCH'));
    await expect(
      governance.execute({ command: 'mark-sent', tenantId: 'globex', invitationId, expectedVersion: 5 }),
    ).rejects.toEqual(refusal('conflict', 'GOVERNANCE_VERSION_CONFLICT'));
    const accepted = await governance.execute({
      command: 'accept',
      tenantId: 'globex',
      invitationId,
      principalId: 'u7',
      expectedVersion: 1,
    });
    expect(accepted.membership).toMatchObject({ principalId: 'u7', roles: ['admin'] });
  });
});

describe('version conflicts (4529)', () => {
  it('a stale expectedVersion and a lost compare-and-set race are logged as 4529 governance-version-conflict', async () => {
    const { governance, logger } = await started();
    const base = { tenantId: 'acme', principalKind: 'user' as const, principalId: 'racer' };
    await governance.execute({ command: 'add-member', ...base, roles: ['member'] });
    await expect(
      governance.execute({ command: 'change-roles', ...base, roles: ['admin'], expectedVersion: 7 }),
    ).rejects.toEqual(refusal('conflict', 'GOVERNANCE_VERSION_CONFLICT'));
    expect(logger.withEventId(4529)).toHaveLength(1);
    expect(logger.withEventId(4523)).toHaveLength(0);

    // Two commands read version 1 of the same membership; the second write loses.
    const outcomes = await Promise.allSettled([
      governance.execute({ command: 'change-roles', ...base, roles: ['admin'] }),
      governance.execute({ command: 'suspend-member', ...base }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({
      kind: 'conflict',
      code: 'GOVERNANCE_VERSION_CONFLICT',
    });
    const conflicts = logger.withEventId(4529);
    expect(conflicts).toHaveLength(2);
    expect(conflicts[1]).toMatchObject({ level: 'warn', store: 'tenant-governance-memberships' });
  });
});

describe('membership commands', () => {
  it('add, change roles, suspend, reactivate and remove, with unchanged and invalid moves', async () => {
    const { governance } = await started();
    const base = { tenantId: 'acme', principalKind: 'user' as const, principalId: 'm1' };
    const added = await governance.execute({ command: 'add-member', ...base, roles: ['member'] });
    expect(added).toMatchObject({ outcome: 'applied', membership: { status: 'active', roles: ['member'] } });
    await expect(governance.execute({ command: 'add-member', ...base, roles: ['member'] })).rejects.toEqual(
      refusal('conflict', 'MEMBERSHIP_EXISTS'),
    );
    const changed = await governance.execute({
      command: 'change-roles',
      ...base,
      roles: ['admin', 'member'],
    });
    expect(changed.membership!.roles).toEqual(['admin', 'member']);
    expect(
      (await governance.execute({ command: 'change-roles', ...base, roles: ['member', 'admin'] })).outcome,
    ).toBe('unchanged');
    expect(
      (await governance.execute({ command: 'suspend-member', ...base, reason: 'audit' })).membership!.status,
    ).toBe('suspended');
    expect(await governance.evaluate(base)).toEqual({ allowed: false, status: 'suspended', roles: [] });
    expect((await governance.execute({ command: 'suspend-member', ...base })).outcome).toBe('unchanged');
    expect((await governance.execute({ command: 'reactivate-member', ...base })).membership!.status).toBe(
      'active',
    );
    const removed = await governance.execute({ command: 'remove-member', ...base });
    expect(removed.audit).toMatchObject({ fromStatus: 'active', toStatus: 'removed', outcome: 'applied' });
    await expect(governance.execute({ command: 'suspend-member', ...base })).rejects.toEqual(
      refusal('not-found', 'MEMBERSHIP_NOT_FOUND'),
    );
    await expect(governance.execute({ command: 'change-roles', ...base, roles: ['member'] })).rejects.toEqual(
      refusal('not-found', 'MEMBERSHIP_NOT_FOUND'),
    );
    expect(
      (await governance.execute({ command: 'add-member', ...base, roles: ['viewer'] })).audit.fromStatus,
    ).toBe('removed');
    await expect(
      governance.execute({
        command: 'add-member',
        tenantId: 'acme',
        principalId: 'has space',
        roles: ['member'],
      }),
    ).rejects.toEqual(refusal('invalid-input', 'PRINCIPAL_INVALID'));
    expect(await governance.evaluate({ tenantId: 'globex', principalId: 'm1' })).toEqual({
      allowed: false,
      status: 'not-member',
      roles: [],
    });
  });

  it('configured memberships are seeded once and administered like runtime ones', async () => {
    const { governance, engine } = await started({
      Memberships: [{ TenantId: 'acme', PrincipalId: 'founder', Roles: ['owner'] }],
    });
    expect(
      await governance.evaluate({ tenantId: 'acme', principalId: 'founder', role: 'owner' }),
    ).toMatchObject({ allowed: true });
    await governance.execute({ command: 'suspend-member', tenantId: 'acme', principalId: 'founder' });
    const surface = engine.technologySurfaces().find((entry) => entry.id === 'tenant-memberships')!;
    expect(surface.metadata).toMatchObject({
      membershipCount: 1,
      configuredMembershipCount: 1,
      runtimeMembershipCount: 0,
      perTenantStatusCounts: { acme: { suspended: 1 } },
      storeKind: 'memory',
    });
  });
});

describe('governance actions', () => {
  it('approval and remediation actions move through decisions and workflow transitions', async () => {
    const { governance } = await started();
    const created = await governance.executeAction({
      command: 'create',
      tenantId: 'acme',
      kind: 'remediation',
      subjectKind: 'membership',
      subjectId: 'm-77',
      title: 'Remove stale admin',
    });
    const actionId = created.action.actionId;
    expect(created.action.status).toBe('pending');
    await expect(
      governance.executeAction({ command: 'transition', tenantId: 'acme', actionId, move: 'start' }),
    ).rejects.toEqual(refusal('conflict', 'ACTION_TRANSITION_INVALID'));
    const approved = await governance.executeAction({
      command: 'decide',
      tenantId: 'acme',
      actionId,
      decision: 'approve',
      actor: 'lead',
      reason: 'ok',
    });
    expect(approved.action).toMatchObject({
      status: 'approved',
      decisions: [{ decision: 'approve', actor: 'lead', reason: 'ok' }],
    });
    expect(approved.audit).toMatchObject({
      command: 'action-decide',
      fromStatus: 'pending',
      toStatus: 'approved',
    });
    await governance.executeAction({ command: 'transition', tenantId: 'acme', actionId, move: 'start' });
    const completed = await governance.executeAction({
      command: 'transition',
      tenantId: 'acme',
      actionId,
      move: 'complete',
      note: 'done',
    });
    expect(completed.action).toMatchObject({ status: 'completed', outcomeNote: 'done' });

    const approval = await governance.executeAction({
      command: 'create',
      tenantId: 'acme',
      kind: 'approval',
      subjectKind: 'invitation',
      title: 'Invite contractor',
    });
    const rejected = await governance.executeAction({
      command: 'decide',
      tenantId: 'acme',
      actionId: approval.action.actionId,
      decision: 'reject',
    });
    expect(rejected.action.status).toBe('rejected');
    await expect(
      governance.executeAction({
        command: 'decide',
        tenantId: 'acme',
        actionId: approval.action.actionId,
        decision: 'approve',
      }),
    ).rejects.toEqual(refusal('conflict', 'ACTION_TRANSITION_INVALID'));
    const second = await governance.executeAction({
      command: 'create',
      tenantId: 'acme',
      kind: 'approval',
      subjectKind: 'role',
      title: 'Grant owner',
    });
    await governance.executeAction({
      command: 'decide',
      tenantId: 'acme',
      actionId: second.action.actionId,
      decision: 'approve',
    });
    await expect(
      governance.executeAction({
        command: 'transition',
        tenantId: 'acme',
        actionId: second.action.actionId,
        move: 'start',
      }),
    ).rejects.toEqual(refusal('conflict', 'ACTION_TRANSITION_INVALID'));
    await expect(
      governance.executeAction({
        command: 'decide',
        tenantId: 'acme',
        actionId: 'nope',
        decision: 'approve',
      }),
    ).rejects.toEqual(refusal('not-found', 'ACTION_NOT_FOUND'));
  });
});
