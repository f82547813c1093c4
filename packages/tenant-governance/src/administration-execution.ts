import {
  administrationCommands,
  tenantAdministrationWorkflowRequestSchema,
  type ParsedAdministrationRequest,
} from './administration-request';
import type { GovernanceContext } from './governance-context';
import { governanceEventIds } from './governance-event-ids';
import { parseGovernanceRequest } from './governance-request-parsing';
import { executeInvitationCommand } from './invitation-commands';
import { executeMembershipCommand } from './membership-commands';
import type { TenantAdministrationWorkflowResult } from './tenant-governance';

type InvitationRequest = Extract<
  ParsedAdministrationRequest,
  { command: 'invite' | 'resend' | 'mark-sent' | 'revoke' | 'accept' }
>;

const invitationCommands: ReadonlySet<string> = new Set([
  'invite',
  'resend',
  'mark-sent',
  'revoke',
  'accept',
]);

function isInvitationRequest(request: ParsedAdministrationRequest): request is InvitationRequest {
  return invitationCommands.has(request.command);
}

/**
 * Validates one administration request. An invalid one is counted under `invalid` in the refused commands and
 * logged (4513, the command name when it is a known one, else `unknown`; never a field value) before the
 * 400 GOVERNANCE_REQUEST_INVALID is thrown.
 */
export function parseAdministrationRequest(
  context: GovernanceContext,
  input: unknown,
): ParsedAdministrationRequest {
  try {
    return parseGovernanceRequest<ParsedAdministrationRequest>(
      tenantAdministrationWorkflowRequestSchema,
      input,
    );
  } catch (error) {
    const named = (input as { command?: unknown } | null | undefined)?.command;
    const command = typeof named === 'string' ? named : 'unknown';
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
}

/** Validates one administration request and runs it: invitation commands, else membership commands. */
export async function executeAdministrationRequest(
  context: GovernanceContext,
  input: unknown,
): Promise<TenantAdministrationWorkflowResult> {
  const request = parseAdministrationRequest(context, input);
  return isInvitationRequest(request)
    ? executeInvitationCommand(context, request)
    : executeMembershipCommand(context, request);
}
