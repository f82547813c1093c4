import { randomUUID } from 'node:crypto';
import {
  OperationError,
  type ErrorKind,
  type KeyedStore,
  type Logger,
  type PackCounter,
  type RuntimeStoryWriter,
} from '@corekit/abstractions';
import type { MultiTenancy } from '@corekit/tenancy';
import { commandEventIds, governanceEventIds } from './governance-event-ids';
import type { TenantGovernanceOptions } from './governance-options';
import type {
  GovernanceAction,
  TenantAdministrationAuditEntry,
  TenantDomainRecord,
  TenantInvitation,
  TenantMembership,
} from './governance-records';
import type { RecordStore } from './record-store';
import type { SharedStateMirrors } from './shared-state-mirrors';

/** Everything the command handlers share. One per registration; holds no module-level state. */
export interface GovernanceContext {
  readonly settings: TenantGovernanceOptions;
  readonly tenancy: MultiTenancy;
  readonly now: () => Date;
  readonly logger: Logger;
  readonly story: RuntimeStoryWriter;
  readonly commandCounter: PackCounter;
  readonly memberships: RecordStore<TenantMembership>;
  readonly invitations: RecordStore<TenantInvitation>;
  readonly domains: RecordStore<TenantDomainRecord>;
  readonly actions: RecordStore<GovernanceAction>;
  readonly audit: KeyedStore<TenantAdministrationAuditEntry>;
  /** The read copies behind the surfaces, following a shared store's change feed (the delivery registration adds its own). */
  readonly sharedState: SharedStateMirrors;
  /** Commands applied and refused since start, by command name (surface counts). */
  readonly applied: Map<string, number>;
  readonly refused: Map<string, number>;
}

export const membershipKey = (tenantId: string, principalKind: string, principalId: string) =>
  `${tenantId}/${principalKind}/${encodeURIComponent(principalId)}`;
export const invitationKey = (tenantId: string, invitationId: string) => `${tenantId}/${invitationId}`;
export const actionKey = (tenantId: string, actionId: string) => `${tenantId}/${actionId}`;
export const domainKey = (domainName: string) => domainName;

/** What a refusal logs: the command, the tenant and the code; never a record's identifiers. */
export function refuse(
  context: GovernanceContext,
  command: string,
  tenantId: string | null,
  kind: ErrorKind,
  code: string,
  message: string,
  eventId: number = governanceEventIds.commandRefused,
): never {
  context.refused.set(command, (context.refused.get(command) ?? 0) + 1);
  context.commandCounter.add(1, { command, outcome: 'refused' });
  context.logger.log({
    level: eventId === governanceEventIds.commandRefused ? 'info' : 'warn',
    eventId,
    category: 'tenant-governance',
    message: `Tenant administration command ${command} refused: ${code}`,
    command,
    code,
    ...(tenantId ? { tenantId } : {}),
  });
  throw new OperationError(kind, code, message);
}

/** Refuses unless the tenant resolves through the multi-tenancy registration (404 TENANT_NOT_FOUND). */
export function assertTenant(context: GovernanceContext, command: string, tenantId: string): void {
  if (!context.tenancy.isKnownTenant(tenantId)) {
    refuse(context, command, null, 'not-found', 'TENANT_NOT_FOUND', 'The tenant does not exist');
  }
}

/** Refuses roles that are not configured (400 ROLE_UNKNOWN) and duplicates (400 ROLES_DUPLICATED). */
export function assertRoles(
  context: GovernanceContext,
  command: string,
  tenantId: string,
  roles: readonly string[],
) {
  const unknown = roles.filter((role) => !context.settings.Roles.includes(role));
  if (unknown.length > 0) {
    refuse(
      context,
      command,
      tenantId,
      'invalid-input',
      'ROLE_UNKNOWN',
      `Unknown role(s) ${unknown.map((role) => JSON.stringify(role)).join(', ')}; configured roles: ${context.settings.Roles.join(', ')}`,
    );
  }
  if (new Set(roles).size !== roles.length) {
    refuse(context, command, tenantId, 'invalid-input', 'ROLES_DUPLICATED', 'A role is listed twice');
  }
}

/** Refuses when the caller's expectedVersion is stale (409 GOVERNANCE_VERSION_CONFLICT, logged as 4529). */
export function assertVersion(
  context: GovernanceContext,
  command: string,
  tenantId: string,
  expected: number | undefined,
  actual: number,
): void {
  if (expected !== undefined && expected !== actual) {
    refuse(
      context,
      command,
      tenantId,
      'conflict',
      'GOVERNANCE_VERSION_CONFLICT',
      `The record is at version ${actual}, not ${expected}; read it again and retry`,
      governanceEventIds.versionConflict,
    );
  }
}

/**
 * Writes the audit entry of an applied (or unchanged) command, logs the command's event id with counts
 * and states only, and bounds the audit store to AuditMaxEntries by dropping the oldest entries.
 */
export async function audit(
  context: GovernanceContext,
  entry: Omit<TenantAdministrationAuditEntry, 'auditId' | 'atUtc'>,
): Promise<TenantAdministrationAuditEntry> {
  const atUtc = context.now().toISOString();
  const record: TenantAdministrationAuditEntry = { ...entry, auditId: randomUUID(), atUtc };
  const excess = (await context.audit.count()) - context.settings.AuditMaxEntries + 1;
  if (excess > 0) {
    for (const old of await context.audit.list({ limit: excess })) await context.audit.delete(old.key);
  }
  // Same-millisecond entries keep their order through the monotonic clock of this process.
  const order = process.hrtime.bigint().toString().padStart(24, '0');
  await context.audit.put(`${atUtc}/${order}/${record.auditId}`, record);
  context.applied.set(entry.command, (context.applied.get(entry.command) ?? 0) + 1);
  context.commandCounter.add(1, { command: entry.command, outcome: entry.outcome });
  context.logger.log({
    level: 'info',
    eventId: commandEventIds[entry.command] ?? governanceEventIds.actionTransitioned,
    category: 'tenant-governance',
    message: `Tenant administration ${entry.command}: ${entry.recordKind} ${entry.fromStatus ?? 'new'} -> ${entry.toStatus} (${entry.outcome})`,
    command: entry.command,
    tenantId: entry.tenantId,
    recordKind: entry.recordKind,
    fromStatus: entry.fromStatus,
    toStatus: entry.toStatus,
    outcome: entry.outcome,
  });
  return record;
}

/** Principal and invitee id shapes, by kind. */
const principalIdPattern = /^[^\s\p{Cc}]{1,256}$/u;
const emailPattern = /^[^\s@\p{Cc}]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/u;
const externalIdentityPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}:[^\s\p{Cc}]{1,256}$/u;

export function isWellFormedPrincipalId(id: string): boolean {
  return principalIdPattern.test(id);
}

/** The normalized invitee id, or undefined when it is not well formed for its kind. */
export function normalizeInviteeId(kind: string, id: string): string | undefined {
  if (kind === 'email') return emailPattern.test(id) && id.length <= 320 ? id.toLowerCase() : undefined;
  if (kind === 'user') return principalIdPattern.test(id) ? id : undefined;
  if (kind === 'external-identity') return externalIdentityPattern.test(id) ? id : undefined;
  return undefined;
}
