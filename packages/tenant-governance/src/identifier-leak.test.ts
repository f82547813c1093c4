import { startGovernance } from './test-support';

// Distinctive identifiers: none of them may appear in any surface, the snapshot, diagnostics or a log record.
const principal = 'principal-zq81x';
const invitee = 'invitee-zq82x@leak.test';
const inviteeUser = 'invitee-user-zq83x';
const domain = 'domain-zq84x.test';
const subject = 'subject-zq85x';
const actor = 'actor-zq86x';
const correlation = 'corr-zq87x';
const seeded = 'seeded-principal-zq88x';

it('no surface, snapshot, diagnostics or log record carries a principal, invitee, domain or action id', async () => {
  const { engine, governance, logger } = await startGovernance({
    Memberships: [{ TenantId: 'globex', PrincipalId: seeded, Roles: ['owner'] }],
    Actions: [
      {
        Id: 'action-configured-zq89x',
        TenantId: 'globex',
        Kind: 'approval',
        SubjectKind: 'tenant',
        Title: 'Review',
      },
    ],
    Domains: [{ TenantId: 'globex', DomainName: 'configured-zq90x.test' }],
  });
  try {
    const ids: string[] = [principal, invitee, inviteeUser, domain, subject, actor, correlation, seeded];
    ids.push('action-configured-zq89x', 'configured-zq90x.test');
    const meta = { actor, correlationId: correlation };
    await governance.execute({
      command: 'add-member',
      tenantId: 'acme',
      principalId: principal,
      roles: ['admin'],
      ...meta,
    });
    await governance.execute({
      command: 'suspend-member',
      tenantId: 'acme',
      principalId: principal,
      ...meta,
    });
    const email = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: invitee,
      roles: ['member'],
      ...meta,
    });
    const user = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'user',
      inviteeId: inviteeUser,
      roles: ['viewer'],
      ...meta,
    });
    ids.push(email.invitation!.invitationId, user.invitation!.invitationId);
    await governance.execute({
      command: 'mark-sent',
      tenantId: 'acme',
      invitationId: email.invitation!.invitationId,
      ...meta,
    });
    await governance.execute({
      command: 'accept',
      tenantId: 'acme',
      invitationId: email.invitation!.invitationId,
      principalId: principal + '-b',
      onBehalf: true,
      ...meta,
    });
    await governance.execute({
      command: 'revoke',
      tenantId: 'acme',
      invitationId: user.invitation!.invitationId,
      ...meta,
    });
    // Refusals log too: they must not carry the identifiers either.
    await expect(
      governance.execute({
        command: 'accept',
        tenantId: 'acme',
        invitationId: user.invitation!.invitationId,
        principalId: principal,
      }),
    ).rejects.toThrow();
    await expect(
      governance.execute({
        command: 'invite',
        tenantId: 'acme',
        inviteeKind: 'email',
        inviteeId: 'bad-' + principal,
        roles: ['member'],
      }),
    ).rejects.toThrow();
    await expect(
      governance.execute({
        command: 'change-roles',
        tenantId: 'acme',
        principalId: 'ghost-' + principal,
        roles: ['member'],
      }),
    ).rejects.toThrow();
    const action = await governance.executeAction({
      command: 'create',
      tenantId: 'acme',
      kind: 'remediation',
      subjectKind: 'membership',
      subjectId: subject,
      title: 'Fix',
      ...meta,
    });
    ids.push(action.action.actionId);
    await governance.executeAction({
      command: 'decide',
      tenantId: 'acme',
      actionId: action.action.actionId,
      decision: 'approve',
      ...meta,
    });
    await expect(
      governance.executeAction({
        command: 'decide',
        tenantId: 'acme',
        actionId: action.action.actionId,
        decision: 'approve',
      }),
    ).rejects.toThrow();
    const declared = await governance.declareDomain({ tenantId: 'acme', domainName: domain, actor });
    ids.push(declared.domainId);
    await expect(governance.declareDomain({ tenantId: 'globex', domainName: domain })).rejects.toThrow();

    const errors: string[] = [];
    for (const attempt of [
      () =>
        governance.execute({
          command: 'invite',
          tenantId: 'acme',
          inviteeKind: 'user',
          inviteeId: principal + '-b',
          roles: ['member'],
        }),
      () =>
        governance.execute({
          command: 'add-member',
          tenantId: 'acme',
          principalId: principal,
          roles: ['member'],
        }),
      () => governance.declareDomain({ tenantId: 'acme', domainName: domain }),
    ]) {
      await attempt().catch((error: Error) => errors.push(JSON.stringify({ ...error, text: error.message })));
    }
    expect(errors).toHaveLength(3);

    const surfaces = engine
      .technologySurfaces()
      .filter((surface) => surface.sourcePackage === '@corekit/tenant-governance');
    expect(surfaces.map((surface) => surface.id).sort()).toEqual([
      'tenant-administration',
      'tenant-domain-ownership',
      'tenant-governance-actions',
      'tenant-governance-boundaries',
      'tenant-invitations',
      'tenant-memberships',
    ]);
    // The surfaces did see the data: counts prove the check is not vacuous.
    const byId = Object.fromEntries(surfaces.map((surface) => [surface.id, surface.metadata]));
    expect(byId['tenant-memberships']).toMatchObject({ membershipCount: 3 });
    expect(byId['tenant-invitations']).toMatchObject({
      invitationCount: 2,
      statusBreakdown: { accepted: 1, revoked: 1 },
    });
    expect(byId['tenant-domain-ownership']).toMatchObject({ domainOwnershipCount: 2 });
    expect(byId['tenant-governance-actions']).toMatchObject({ actionCount: 2 });

    const outputs = {
      surfaces: JSON.stringify(engine.technologySurfaces()),
      snapshot: JSON.stringify(engine.snapshot()),
      diagnostics: JSON.stringify(engine.diagnostics()),
      story: JSON.stringify(engine.runtimeStory()),
      logs: logger.text(),
      errors: errors.join('\n'),
    };
    expect(logger.records.length).toBeGreaterThan(10);
    for (const [name, text] of Object.entries(outputs)) {
      for (const id of ids) {
        if (text.toLowerCase().includes(id.toLowerCase())) throw new Error(`${name} exposes ${id}`);
      }
    }
  } finally {
    await engine.stop();
  }
});
