import { randomUUID } from 'node:crypto';
import { normalizeHostName } from '@corekit/tenancy';
import { domainRecord } from './domain-commands';
import {
  actionKey,
  domainKey,
  invitationKey,
  membershipKey,
  type GovernanceContext,
} from './governance-context';
import type { GovernanceContribution } from './tenant-governance';

/** A module's contribution, as `contribute` took it. */
export interface ModuleContribution {
  readonly moduleId: string;
  readonly contribution: GovernanceContribution;
}

/** What every seeded record carries: configured origin, the contributing module (null for configuration). */
function configured(sourceModuleId: string | null, stamp: string) {
  return {
    origin: 'configured' as const,
    sourceModuleId,
    createdAtUtc: stamp,
    updatedAtUtc: stamp,
  };
}

async function seedMemberships(
  context: GovernanceContext,
  contributions: readonly ModuleContribution[],
  stamp: string,
): Promise<void> {
  const memberships = [
    ...context.settings.Memberships.map((item) => ({ ...item, moduleId: null as string | null })),
    ...contributions.flatMap(({ moduleId, contribution }) =>
      (contribution.memberships ?? []).map((item) => ({
        TenantId: item.tenantId,
        PrincipalKind: item.principalKind ?? 'user',
        PrincipalId: item.principalId,
        Roles: [...item.roles],
        Status: 'active' as const,
        moduleId,
      })),
    ),
  ];
  for (const item of memberships) {
    await context.memberships.seed(membershipKey(item.TenantId, item.PrincipalKind, item.PrincipalId), {
      membershipId: randomUUID(),
      tenantId: item.TenantId,
      principalKind: item.PrincipalKind,
      principalId: item.PrincipalId,
      roles: item.Roles,
      status: item.Status,
      invitationId: null,
      ...configured(item.moduleId, stamp),
    });
  }
}

async function seedInvitations(context: GovernanceContext, now: Date): Promise<void> {
  const expiresAtUtc = new Date(
    now.getTime() + context.settings.InvitationLifetimeSeconds * 1000,
  ).toISOString();
  for (const item of context.settings.Invitations) {
    await context.invitations.seed(invitationKey(item.TenantId, item.Id), {
      invitationId: item.Id,
      tenantId: item.TenantId,
      inviteeKind: item.InviteeKind,
      inviteeId: item.InviteeKind === 'email' ? item.InviteeId.toLowerCase() : item.InviteeId,
      roles: item.Roles,
      status: 'pending',
      expiresAtUtc,
      sendCount: 0,
      resendCount: 0,
      sentAtUtc: null,
      acceptedAtUtc: null,
      revokedAtUtc: null,
      expiredAtUtc: null,
      acceptedBy: null,
      metadata: {},
      ...configured(null, now.toISOString()),
    });
  }
}

async function seedActions(
  context: GovernanceContext,
  contributions: readonly ModuleContribution[],
  stamp: string,
): Promise<void> {
  const actions = [
    ...context.settings.Actions.map((item) => ({ ...item, moduleId: null as string | null })),
    ...contributions.flatMap(({ moduleId, contribution }) =>
      (contribution.actions ?? []).map((item) => ({
        Id: item.id,
        TenantId: item.tenantId,
        Kind: item.kind,
        SubjectKind: item.subjectKind,
        SubjectId: item.subjectId,
        Title: item.title,
        moduleId,
      })),
    ),
  ];
  for (const item of actions) {
    await context.actions.seed(actionKey(item.TenantId, item.Id), {
      actionId: item.Id,
      tenantId: item.TenantId,
      kind: item.Kind,
      subjectKind: item.SubjectKind,
      subjectId: item.SubjectId ?? null,
      title: item.Title,
      status: 'pending',
      requestedBy: null,
      decisions: [],
      outcomeNote: null,
      ...configured(item.moduleId, stamp),
    });
  }
}

async function seedDomains(
  context: GovernanceContext,
  contributions: readonly ModuleContribution[],
  stamp: string,
): Promise<void> {
  const domains = [
    ...context.settings.Domains.map((item) => ({
      tenantId: item.TenantId,
      domainName: item.DomainName,
      moduleId: null as string | null,
    })),
    ...contributions.flatMap(({ moduleId, contribution }) =>
      (contribution.domains ?? []).map((item) => ({ ...item, moduleId })),
    ),
  ];
  for (const item of domains) {
    const domainName = normalizeHostName(item.domainName);
    await context.domains.seed(
      domainKey(domainName),
      domainRecord(item.tenantId, domainName, item.moduleId, stamp, 'configured'),
    );
  }
}

/**
 * Writes the configured records (configuration, then module contributions) that are not in the stores yet:
 * memberships, invitations (pending, with the default lifetime from now), governance actions (pending) and
 * declared domains. A record already stored (a restart, another replica, a command changed it) is kept as it is.
 */
export async function seedConfiguredRecords(
  context: GovernanceContext,
  contributions: readonly ModuleContribution[],
): Promise<void> {
  const now = context.now();
  const stamp = now.toISOString();
  await seedMemberships(context, contributions, stamp);
  await seedInvitations(context, now);
  await seedActions(context, contributions, stamp);
  await seedDomains(context, contributions, stamp);
}
