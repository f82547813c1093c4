import { OperationError } from '@corekit/abstractions';
import { executeAdministrationRequest } from './administration-execution';
import { administrationCommands } from './administration-request';
import { declareDomain, listDomains, removeDomain } from './domain-commands';
import { executeActionRequest, governanceActionRequestSchema } from './governance-actions';
import type { GovernanceContext } from './governance-context';
import { GovernanceContributions } from './governance-contributions';
import { governanceReads } from './governance-reads';
import { parseGovernanceRequest } from './governance-request-parsing';
import { startGovernanceState } from './governance-startup';
import { issueAcceptanceSecrets, recordSuppliedRecipient } from './invitation-delivery-facts';
import { expireOverdueInvitations } from './invitation-expiry-sweep';
import type { TenantGovernance } from './tenant-governance';

/** Wraps a call that needs the service started: before, it answers 503 GOVERNANCE_NOT_STARTED. */
function whenStarted(contributions: GovernanceContributions) {
  return <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!contributions.isClosed) {
        throw new OperationError(
          'unavailable',
          'GOVERNANCE_NOT_STARTED',
          'Tenant governance is not started yet',
        );
      }
      return call(...args);
    };
}

/**
 * The governance service (`TenantGovernance`) composed of its parts: administration commands
 * (`administration-execution`: invitation and membership commands), governance actions, the delivery facts
 * of invitations, reads, domain commands, the expiry sweep, module contributions, and the start step the
 * registration runs in its `started` hook (seeding, repair, expiry). Every call but `contribute` needs the
 * service started.
 */
export function createGovernanceService(
  context: GovernanceContext,
): TenantGovernance & { start(): Promise<void> } {
  const contributions = new GovernanceContributions((tenantId) => context.tenancy.isKnownTenant(tenantId));
  const started = whenStarted(contributions);
  const reads = governanceReads(context);
  const execute = started((input: unknown) => executeAdministrationRequest(context, input));
  return {
    supportedCommands: administrationCommands,
    /** Runs after the registration loaded the read copies (`SharedStateMirrors.start`). */
    start: () => startGovernanceState(context, contributions.list(), () => contributions.close()),
    execute,
    executeAction: started((input: unknown) =>
      executeActionRequest(context, parseGovernanceRequest(governanceActionRequestSchema, input)),
    ),
    markInvitationSent: (tenantId, invitationId) => execute({ command: 'mark-sent', tenantId, invitationId }),
    issueAcceptanceSecrets: started((target) => issueAcceptanceSecrets(context, target)),
    recordSuppliedRecipient: started((request) => recordSuppliedRecipient(context, request)),
    evaluate: started(reads.evaluate),
    getMembership: started(reads.getMembership),
    listMemberships: started(reads.listMemberships),
    getInvitation: started(reads.getInvitation),
    listInvitations: started(reads.listInvitations),
    getAction: started(reads.getAction),
    listActions: started(reads.listActions),
    declareDomain: started((request) => declareDomain(context, request)),
    removeDomain: started((request) => removeDomain(context, request)),
    listDomains: started((tenantId) => listDomains(context, tenantId)),
    auditEntries: started(reads.auditEntries),
    expireOverdueInvitations: started(() => expireOverdueInvitations(context)),
    contribute: (moduleId, contribution) => contributions.add(moduleId, contribution),
  };
}
