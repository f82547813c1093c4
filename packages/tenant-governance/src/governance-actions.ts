import { randomUUID } from 'node:crypto';
import { identifierSchema } from '@corekit/abstractions';
import { z } from 'zod';
import {
  actionKey,
  assertTenant,
  assertVersion,
  audit,
  refuse,
  type GovernanceContext,
} from './governance-context';
import {
  actionKinds,
  actionSubjectKinds,
  type GovernanceAction,
  type TenantAdministrationAuditEntry,
} from './governance-records';
import { actionTransitions } from './invitation-state-machine';

const common = {
  tenantId: identifierSchema,
  actor: z.string().trim().min(1).max(256).optional(),
  correlationId: z.string().trim().min(1).max(200).optional(),
  expectedVersion: z.number().int().positive().optional(),
};

/** The request of `governance.executeAction`: create an action, decide on it, or move it on. */
export const governanceActionRequestSchema = z.discriminatedUnion('command', [
  z
    .object({
      command: z.literal('create'),
      ...common,
      kind: z.enum(actionKinds),
      subjectKind: z.enum(actionSubjectKinds),
      subjectId: z.string().trim().min(1).max(256).optional(),
      title: z.string().trim().min(1).max(200),
    })
    .strict(),
  z
    .object({
      command: z.literal('decide'),
      ...common,
      actionId: identifierSchema,
      decision: z.enum(['approve', 'reject']),
      reason: z.string().max(500).optional(),
    })
    .strict(),
  z
    .object({
      command: z.literal('transition'),
      ...common,
      actionId: identifierSchema,
      move: z.enum(['start', 'complete', 'fail', 'cancel']),
      note: z.string().max(500).optional(),
    })
    .strict(),
]);
export type TenantGovernanceActionRequest = z.input<typeof governanceActionRequestSchema>;

export interface TenantGovernanceActionResult {
  readonly command: 'create' | 'decide' | 'transition';
  readonly action: GovernanceAction;
  readonly audit: TenantAdministrationAuditEntry;
}

export async function executeActionRequest(
  context: GovernanceContext,
  request: z.output<typeof governanceActionRequestSchema>,
): Promise<TenantGovernanceActionResult> {
  const name = `action-${request.command}`;
  assertTenant(context, name, request.tenantId);
  const now = context.now().toISOString();
  const auditBase = {
    tenantId: request.tenantId,
    recordKind: 'action' as const,
    actor: request.actor ?? null,
    correlationId: request.correlationId ?? null,
    outcome: 'applied' as const,
  };
  if (request.command === 'create') {
    const action: GovernanceAction = {
      actionId: randomUUID(),
      tenantId: request.tenantId,
      kind: request.kind,
      subjectKind: request.subjectKind,
      subjectId: request.subjectId ?? null,
      title: request.title,
      status: 'pending',
      requestedBy: request.actor ?? null,
      decisions: [],
      outcomeNote: null,
      origin: 'runtime',
      sourceModuleId: null,
      createdAtUtc: now,
      updatedAtUtc: now,
    };
    const written = await context.actions.write(actionKey(request.tenantId, action.actionId), action, 0);
    const entry = await audit(context, {
      ...auditBase,
      command: name,
      recordId: action.actionId,
      fromStatus: null,
      toStatus: 'pending',
    });
    return { command: 'create', action: written, audit: entry };
  }

  const key = actionKey(request.tenantId, request.actionId);
  const current = await context.actions.get(key);
  if (!current)
    refuse(
      context,
      name,
      request.tenantId,
      'not-found',
      'ACTION_NOT_FOUND',
      'The governance action does not exist',
    );
  assertVersion(context, name, request.tenantId, request.expectedVersion, current.version);
  const moveName = request.command === 'decide' ? request.decision : request.move;
  const move = actionTransitions[moveName];
  if (!move.from.includes(current.status) || (move.remediationOnly && current.kind !== 'remediation')) {
    refuse(
      context,
      name,
      request.tenantId,
      'conflict',
      'ACTION_TRANSITION_INVALID',
      `A ${current.status} ${current.kind} action cannot be moved by ${moveName}`,
    );
  }
  const next: GovernanceAction = {
    ...current,
    status: move.to,
    updatedAtUtc: now,
    decisions:
      request.command === 'decide'
        ? [
            ...current.decisions,
            {
              decision: request.decision,
              actor: request.actor ?? null,
              reason: request.reason ?? null,
              atUtc: now,
            },
          ]
        : current.decisions,
    outcomeNote:
      request.command === 'transition' && request.note !== undefined ? request.note : current.outcomeNote,
  };
  const written = await context.actions.write(key, next, current.version);
  const entry = await audit(context, {
    ...auditBase,
    command: name,
    recordId: current.actionId,
    fromStatus: current.status,
    toStatus: move.to,
  });
  return { command: request.command, action: written, audit: entry };
}
