import { randomUUID } from 'node:crypto';
import { CoreError, OperationError } from '@corekit/abstractions';
import { normalizeHostName } from '@corekit/tenancy';
import { administrationCommands, tenantAdministrationWorkflowRequestSchema } from './administration-request';
import {
  actionKey,
  assertTenant,
  audit,
  domainKey,
  invitationKey,
  membershipKey,
  refuse,
  type GovernanceContext,
} from './governance-context';
import { executeActionRequest, governanceActionRequestSchema } from './governance-actions';
import { governanceEventIds } from './governance-event-ids';
import type { TenantDomainRecord } from './governance-records';
import { executeInvitationCommand, expireIfOverdue, grantAcceptedMembership } from './invitation-commands';
import { withExpiry } from './invitation-state-machine';
import { versionConflictCode } from './record-store';
import { publicInvitation } from './acceptance-secret';
import { issueAcceptanceSecrets, recordSuppliedRecipient } from './invitation-delivery-facts';
import { executeMembershipCommand } from './membership-commands';
import type { GovernanceContribution, TenantGovernance } from './tenant-governance';

const domainPattern = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function parse<T>(
  schema: { safeParse(value: unknown): { success: boolean; data?: T; error?: { issues: unknown[] } } },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    // The issues name fields and rules; zod issues do not echo input values.
    const issues = (
      result.error!.issues as Array<{ path: PropertyKey[]; message: string; code: string }>
    ).map((issue) => ({
      path: issue.path.map(String).join('.'),
      code: issue.code,
      message: issue.message,
    }));
    throw new OperationError('invalid-input', 'GOVERNANCE_REQUEST_INVALID', 'The request is not valid', {
      errors: issues,
    });
  }
  return result.data as T;
}

/** The governance service plus the start step the registration runs in its `started` hook. */
export function createGovernanceService(
  context: GovernanceContext,
): TenantGovernance & { start(): Promise<void> } {
  const contributions: Array<{ moduleId: string; contribution: GovernanceContribution }> = [];
  let started = false;
  const assertStarted = () => {
    if (!started) {
      throw new OperationError(
        'unavailable',
        'GOVERNANCE_NOT_STARTED',
        'Tenant governance is not started yet',
      );
    }
  };

  async function seed(): Promise<void> {
    const now = context.now();
    const stamp = now.toISOString();
    const common = (sourceModuleId: string | null) => ({
      origin: 'configured' as const,
      sourceModuleId,
      createdAtUtc: stamp,
      updatedAtUtc: stamp,
    });
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
        ...common(item.moduleId),
      });
    }
    for (const item of context.settings.Invitations) {
      await context.invitations.seed(invitationKey(item.TenantId, item.Id), {
        invitationId: item.Id,
        tenantId: item.TenantId,
        inviteeKind: item.InviteeKind,
        inviteeId: item.InviteeKind === 'email' ? item.InviteeId.toLowerCase() : item.InviteeId,
        roles: item.Roles,
        status: 'pending',
        expiresAtUtc: new Date(
          now.getTime() + context.settings.InvitationLifetimeSeconds * 1000,
        ).toISOString(),
        sendCount: 0,
        resendCount: 0,
        sentAtUtc: null,
        acceptedAtUtc: null,
        revokedAtUtc: null,
        expiredAtUtc: null,
        acceptedBy: null,
        metadata: {},
        ...common(null),
      });
    }
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
        ...common(item.moduleId),
      });
    }
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

  /** An accepted invitation whose membership write was lost (a crash between the two writes) gets it now. */
  async function repairAcceptedInvitations(): Promise<number> {
    let repaired = 0;
    for (const invitation of context.invitations.values()) {
      if (invitation.status !== 'accepted' || !invitation.acceptedBy) continue;
      const { principalKind, principalId } = invitation.acceptedBy;
      if (await context.memberships.get(membershipKey(invitation.tenantId, principalKind, principalId)))
        continue;
      try {
        await grantAcceptedMembership(context, invitation);
        repaired += 1;
      } catch (error) {
        // Another replica starting at the same time repaired it first.
        if (!(error instanceof OperationError) || error.code !== versionConflictCode) throw error;
      }
    }
    return repaired;
  }

  const service: TenantGovernance & { start(): Promise<void> } = {
    supportedCommands: administrationCommands,
    /** Runs after the registration loaded the read copies (`SharedStateMirrors.start`). */
    async start() {
      await seed();
      const repaired = await repairAcceptedInvitations();
      started = true;
      const expired = await service.expireOverdueInvitations();
      context.logger.log({
        level: 'info',
        eventId: governanceEventIds.stateLoaded,
        category: 'tenant-governance',
        message: `Tenant governance state loaded: ${context.memberships.values().length} membership(s), ${context.invitations.values().length} invitation(s), ${context.actions.values().length} action(s), ${context.domains.values().length} domain(s)`,
        repairedMemberships: repaired,
        expiredInvitations: expired,
      });
    },
    async execute(input) {
      assertStarted();
      let request;
      try {
        request = parse<import('./administration-request').ParsedAdministrationRequest>(
          tenantAdministrationWorkflowRequestSchema,
          input,
        );
      } catch (error) {
        const command =
          typeof (input as { command?: unknown })?.command === 'string'
            ? String((input as { command: string }).command)
            : 'unknown';
        context.refused.set('invalid', (context.refused.get('invalid') ?? 0) + 1);
        context.logger.log({
          level: 'info',
          eventId: governanceEventIds.commandRefused,
          category: 'tenant-governance',
          message: 'Tenant administration request refused: GOVERNANCE_REQUEST_INVALID',
          command: administrationCommands.includes(command as never) ? command : 'unknown',
          code: 'GOVERNANCE_REQUEST_INVALID',
        });
        throw error;
      }
      switch (request.command) {
        case 'invite':
        case 'resend':
        case 'mark-sent':
        case 'revoke':
        case 'accept':
          return executeInvitationCommand(context, request);
        default:
          return executeMembershipCommand(context, request);
      }
    },
    async executeAction(input) {
      assertStarted();
      return executeActionRequest(context, parse(governanceActionRequestSchema, input));
    },
    markInvitationSent: (tenantId, invitationId) =>
      service.execute({ command: 'mark-sent', tenantId, invitationId }),
    async issueAcceptanceSecrets(target) {
      assertStarted();
      return issueAcceptanceSecrets(context, target);
    },
    async recordSuppliedRecipient(request) {
      assertStarted();
      return recordSuppliedRecipient(context, request);
    },
    async evaluate({ tenantId, principalKind = 'user', principalId, role }) {
      assertStarted();
      const membership = await context.memberships.get(membershipKey(tenantId, principalKind, principalId));
      if (!membership) return { allowed: false, status: 'not-member', roles: [] };
      const active = membership.status === 'active';
      return {
        allowed: active && (role === undefined || membership.roles.includes(role)),
        status: membership.status,
        roles: active ? membership.roles : [],
      };
    },
    async getMembership(tenantId, principalKind, principalId) {
      assertStarted();
      return context.memberships.get(membershipKey(tenantId, principalKind, principalId));
    },
    async listMemberships(tenantId) {
      assertStarted();
      return context.memberships.list(`${tenantId}/`);
    },
    async getInvitation(tenantId, invitationId) {
      assertStarted();
      const invitation = await context.invitations.get(invitationKey(tenantId, invitationId));
      return invitation && publicInvitation(withExpiry(invitation, context.now()));
    },
    async listInvitations(tenantId) {
      assertStarted();
      return (await context.invitations.list(`${tenantId}/`)).map((invitation) =>
        publicInvitation(withExpiry(invitation, context.now())),
      );
    },
    async getAction(tenantId, actionId) {
      assertStarted();
      return context.actions.get(actionKey(tenantId, actionId));
    },
    async listActions(tenantId) {
      assertStarted();
      return context.actions.list(`${tenantId}/`);
    },
    async declareDomain({ tenantId, domainName, actor }) {
      assertStarted();
      assertTenant(context, 'declare-domain', tenantId);
      const name = normalizeHostName(domainName);
      if (!domainPattern.test(name)) {
        refuse(
          context,
          'declare-domain',
          tenantId,
          'invalid-input',
          'DOMAIN_INVALID',
          'The domain name is not a well-formed DNS name',
        );
      }
      if (await context.domains.get(domainKey(name))) {
        refuse(
          context,
          'declare-domain',
          tenantId,
          'conflict',
          'DOMAIN_ALREADY_DECLARED',
          'The domain is already declared',
        );
      }
      const stamp = context.now().toISOString();
      const written = await context.domains.write(
        domainKey(name),
        domainRecord(tenantId, name, null, stamp, 'runtime'),
        0,
      );
      await audit(context, {
        command: 'declare-domain',
        tenantId,
        recordKind: 'domain',
        recordId: written.domainId,
        fromStatus: null,
        toStatus: 'declared',
        outcome: 'applied',
        actor: actor ?? null,
        correlationId: null,
      });
      return written;
    },
    async removeDomain({ tenantId, domainName, actor }) {
      assertStarted();
      assertTenant(context, 'remove-domain', tenantId);
      const key = domainKey(normalizeHostName(domainName));
      const current = await context.domains.get(key);
      if (!current || current.tenantId !== tenantId) {
        refuse(
          context,
          'remove-domain',
          tenantId,
          'not-found',
          'DOMAIN_NOT_FOUND',
          'The tenant has not declared this domain',
        );
      }
      await context.domains.delete(key, current.version);
      await audit(context, {
        command: 'remove-domain',
        tenantId,
        recordKind: 'domain',
        recordId: current.domainId,
        fromStatus: current.status,
        toStatus: 'removed',
        outcome: 'applied',
        actor: actor ?? null,
        correlationId: null,
      });
    },
    async listDomains(tenantId) {
      assertStarted();
      return (await context.domains.list('')).filter((domain) => domain.tenantId === tenantId);
    },
    async auditEntries(limit = 100) {
      assertStarted();
      const entries = await context.audit.list();
      return entries
        .slice(-limit)
        .reverse()
        .map((entry) => entry.value);
    },
    async expireOverdueInvitations() {
      assertStarted();
      let expired = 0;
      for (const invitation of await context.invitations.list('')) {
        try {
          const after = await expireIfOverdue(context, invitation);
          if (after.status !== invitation.status) expired += 1;
        } catch (error) {
          // Another writer changed it since the list (another replica's sweep or start, a command): its
          // write stands, and a still-overdue invitation is seen by the next sweep (reads see it expired).
          if (!(error instanceof OperationError) || error.code !== versionConflictCode) throw error;
        }
      }
      return expired;
    },
    contribute(moduleId, contribution) {
      if (started) {
        throw new CoreError(
          'GOVERNANCE_ALREADY_STARTED',
          'Governance contributions must be made before the engine starts',
        );
      }
      const tenants = [
        ...(contribution.memberships ?? []),
        ...(contribution.actions ?? []),
        ...(contribution.domains ?? []),
      ].map((item) => item.tenantId);
      const unknown = tenants.filter((tenantId) => !context.tenancy.isKnownTenant(tenantId));
      if (unknown.length > 0) {
        throw new CoreError(
          'GOVERNANCE_CONTRIBUTION_INVALID',
          `Module ${moduleId} contributed records for unknown tenant(s) ${[...new Set(unknown)].join(', ')}`,
        );
      }
      contributions.push({ moduleId, contribution });
    },
  };
  return service;
}

function domainRecord(
  tenantId: string,
  domainName: string,
  sourceModuleId: string | null,
  stamp: string,
  origin: 'configured' | 'runtime',
): TenantDomainRecord {
  return {
    domainId: randomUUID(),
    tenantId,
    domainName,
    status: 'declared',
    verificationMethod: null,
    verifiedAtUtc: null,
    origin,
    sourceModuleId,
    createdAtUtc: stamp,
    updatedAtUtc: stamp,
  };
}
