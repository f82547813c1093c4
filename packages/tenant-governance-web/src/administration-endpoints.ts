import { defineOperation, OperationError } from '@corekit/abstractions';
import {
  invitationDeliveryDispatcherKey,
  invitationDispatchRequestSchema,
  tenantAdministrationWorkflowRequestSchema,
  tenantGovernanceKey,
} from '@corekit/tenant-governance';
import { z } from 'zod';
import { authorizationOf, type EndpointPlan } from './endpoint-plan';
import { authorizedTenant, commandResource, dispatchResource } from './tenant-resource';

const tags = ['Tenant governance'];

function unavailable(what: string): OperationError {
  return new OperationError(
    'unavailable',
    'GOVERNANCE_NOT_REGISTERED',
    `${what} is not registered on this engine`,
  );
}

/** Answer of `POST …/commands`: the changed record(s) and the audit entry (see the governance README). */
export const administrationCommandResponseSchema = z.looseObject({
  command: z.string(),
  outcome: z.enum(['applied', 'unchanged']),
  membership: z.looseObject({}).nullable(),
  invitation: z.looseObject({}).nullable(),
  audit: z.looseObject({ auditId: z.string() }),
});

/**
 * `POST /engine/tenant-administration/commands`: one `TenantAdministrationWorkflowRequest` per call, run by
 * `governance.execute`. When the host's authorizer names a subject, it becomes the audit actor (the body's
 * `actor` is then ignored, so a caller cannot write another actor into the audit trail).
 */
export function administrationCommandOperation(plan: EndpointPlan) {
  return defineOperation({
    id: plan.operationId,
    method: 'POST',
    path: plan.routePattern,
    summary: 'Run one tenant administration command',
    description:
      'Body TenantAdministrationWorkflowRequest (command invite, resend, mark-sent, revoke, accept, add-member, change-roles, remove-member, suspend-member or reactivate-member plus its fields). Answers the changed records and the audit entry.',
    tags,
    body: tenantAdministrationWorkflowRequestSchema,
    result: administrationCommandResponseSchema,
    errors: {
      'invalid-input':
        'the command or its fields are invalid (unknown fields refused); TENANT_SCOPE_CONFLICT when the query or route names another tenant than the body; TENANT_ID_INVALID',
      unauthenticated: 'no credentials the host accepts',
      forbidden: 'the host refused the named policy or this tenant (resource.tenantId)',
      'not-found': 'tenant, invitation or membership not found',
      conflict: 'the transition is not allowed, a duplicate, or a version conflict',
      'too-large': 'the body is over the limit',
    },
    authorization: authorizationOf(plan),
    authorizationResource: commandResource,
    maxBodyBytes: plan.maxRequestBodyBytes ?? undefined,
    excludeFromDescription: plan.excludedFromDescription,
    async handler({ body: input }, context) {
      // The tenant the authorizer allowed (the body's, checked against the query and route), and no other.
      const body = { ...input, tenantId: authorizedTenant(context) ?? input.tenantId };
      const governance = context.engine.resolve(tenantGovernanceKey);
      if (!governance) throw unavailable('Tenant governance');
      const subject = context.principal?.subject;
      const request = subject ? { ...body, actor: subject } : body;
      const result = await governance.execute(request);
      return result as unknown as z.input<typeof administrationCommandResponseSchema>;
    },
  });
}

/** One sender's outcome in a dispatch answer. */
const senderOutcomeSchema = z.object({
  senderId: z.string(),
  outcome: z.enum(['dispatched', 'suppressed', 'sender-failed', 'already-running']),
  reason: z.string().nullable(),
  decision: z.enum(['sender', 'provider-managed', 'dispatcher']),
  attempt: z.number().int(),
  providerMessageId: z.string().nullable(),
  retryQueued: z.boolean(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

/**
 * Answer of `POST /engine/tenant-invitations/delivery-dispatches`: the dispatch id, the invitation status
 * after the dispatch, and one outcome per sender (dispatched, suppressed, sender-failed, or already-running
 * when the same tenant + invitation + channel is being dispatched in this process). Sender metadata is
 * sanitized by the dispatcher: never a recipient address or a body.
 */
export const invitationDispatchResponseSchema = z.object({
  dispatchId: z.string(),
  tenantId: z.string(),
  invitationId: z.string(),
  channel: z.string(),
  invitationStatus: z.string(),
  outcomes: z.array(senderOutcomeSchema),
});

/** `POST /engine/tenant-invitations/delivery-dispatches` over the dispatcher (`invitationDeliveryDispatcherKey`). */
export function deliveryDispatchOperation(plan: EndpointPlan) {
  return defineOperation({
    id: plan.operationId,
    method: 'POST',
    path: plan.routePattern,
    summary: 'Dispatch an invitation through the registered senders',
    description:
      'Body { tenantId, invitationId, channel = email, metadata? (at most 20 string entries), senderIds? }. Answers one outcome per sender; the first dispatched outcome marks the invitation sent.',
    tags,
    body: invitationDispatchRequestSchema,
    result: invitationDispatchResponseSchema,
    errors: {
      'invalid-input':
        'the body is invalid (unknown fields refused); TENANT_SCOPE_CONFLICT when the query or route names another tenant than the body; TENANT_ID_INVALID',
      unauthenticated: 'no credentials the host accepts',
      forbidden: 'the host refused the named policy or this tenant (resource.tenantId)',
      'not-found': 'INVITATION_NOT_FOUND',
      conflict: 'INVITATION_NOT_DELIVERABLE (not pending or sent) or DELIVERY_NO_SENDERS',
      'too-large': 'the body is over the limit',
    },
    authorization: authorizationOf(plan),
    authorizationResource: dispatchResource,
    maxBodyBytes: plan.maxRequestBodyBytes ?? undefined,
    excludeFromDescription: plan.excludedFromDescription,
    async handler({ body: input }, context) {
      const body = { ...input, tenantId: authorizedTenant(context) ?? input.tenantId };
      const dispatcher = context.engine.resolve(invitationDeliveryDispatcherKey);
      if (!dispatcher) throw unavailable('Invitation delivery');
      const result = await dispatcher.dispatch({ ...body, signal: context.signal });
      return result as unknown as z.input<typeof invitationDispatchResponseSchema>;
    },
  });
}
