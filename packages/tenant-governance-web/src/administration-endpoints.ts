import { defineOperation, OperationError } from '@corekit/abstractions';
import {
  invitationDeliveryDispatcherKey,
  invitationDispatchRequestSchema,
  suppliesRecipient,
  tenantAdministrationWorkflowRequestSchema,
  tenantGovernanceKey,
} from '@corekit/tenant-governance';
import { z } from 'zod';
import { authorizationOf, type EndpointPlan } from './endpoint-plan';
import { authorizedTenant, commandResource, dispatchResource } from './tenant-resource';
import { requireGrant } from './request-grants';

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
 * `actor` is then ignored, so a caller cannot write another actor into the audit trail). An `accept` with
 * `onBehalf: true` also needs the plan's `acceptOnBehalf` policy (403
 * INVITATION_ACCEPT_ON_BEHALF_FORBIDDEN without it) and a subject, recorded as the actor (403
 * INVITATION_ACCEPT_ON_BEHALF_SUBJECT_UNKNOWN when the authorizer names none).
 */
export function administrationCommandOperation(plan: EndpointPlan) {
  return defineOperation({
    id: plan.operationId,
    method: 'POST',
    path: plan.routePattern,
    summary: 'Run one tenant administration command',
    description:
      "Body TenantAdministrationWorkflowRequest (command invite, resend, mark-sent, revoke, accept, add-member, change-roles, remove-member, suspend-member or reactivate-member plus its fields). Answers the changed records and the audit entry. The invitee's own acceptance of an email invitation carries acceptanceSecret; an administrator's acceptance on behalf (onBehalf: true) needs a further policy.",
    tags,
    body: tenantAdministrationWorkflowRequestSchema,
    result: administrationCommandResponseSchema,
    errors: {
      'invalid-input':
        'the command or its fields are invalid (unknown fields refused); TENANT_SCOPE_CONFLICT when the query or route names another tenant than the body; TENANT_ID_INVALID',
      unauthenticated: 'no credentials the host accepts',
      forbidden:
        'the host refused the named policy or this tenant (resource.tenantId), or the accept-on-behalf policy (INVITATION_ACCEPT_ON_BEHALF_FORBIDDEN); an acceptance secret missing or wrong (INVITATION_ACCEPTANCE_SECRET_REQUIRED, _INVALID)',
      'not-found': 'tenant, invitation or membership not found',
      conflict:
        'the transition is not allowed, a duplicate, a version conflict, or a used acceptance secret (INVITATION_ACCEPTANCE_SECRET_USED)',
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
      let subject = context.principal?.subject;
      if (body.command === 'accept' && body.onBehalf) {
        const granted = await requireGrant(
          context,
          plan.additionalAuthorizationPolicies.acceptOnBehalf!,
          'INVITATION_ACCEPT_ON_BEHALF_FORBIDDEN',
          'Accepting an invitation on behalf of the invitee needs its own grant',
        );
        subject = granted.subject ?? subject;
        if (!subject) {
          throw new OperationError(
            'forbidden',
            'INVITATION_ACCEPT_ON_BEHALF_SUBJECT_UNKNOWN',
            'An acceptance on behalf is recorded with who did it, and the host authorizer named no subject',
          );
        }
      }
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

/**
 * `POST /engine/tenant-invitations/delivery-dispatches` over the dispatcher (`invitationDeliveryDispatcherKey`).
 * A body whose metadata supplies its own recipient address also needs the plan's `suppliedRecipient`
 * policy (403 DELIVERY_RECIPIENT_SUPPLY_FORBIDDEN without it); the dispatcher records such a dispatch on
 * the invitation's audit trail with the principal's subject as the actor.
 */
export function deliveryDispatchOperation(plan: EndpointPlan) {
  return defineOperation({
    id: plan.operationId,
    method: 'POST',
    path: plan.routePattern,
    summary: 'Dispatch an invitation through the registered senders',
    description:
      'Body { tenantId, invitationId, channel = email, metadata? (at most 20 string entries), senderIds? }. Answers one outcome per sender; the first dispatched outcome marks the invitation sent. Metadata that supplies a recipient address needs a further policy and is recorded on the invitation audit trail.',
    tags,
    body: invitationDispatchRequestSchema,
    result: invitationDispatchResponseSchema,
    errors: {
      'invalid-input':
        'the body is invalid (unknown fields refused); TENANT_SCOPE_CONFLICT when the query or route names another tenant than the body; TENANT_ID_INVALID',
      unauthenticated: 'no credentials the host accepts',
      forbidden:
        'the host refused the named policy or this tenant (resource.tenantId), or the supplied-recipient policy (DELIVERY_RECIPIENT_SUPPLY_FORBIDDEN)',
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
      let subject = context.principal?.subject ?? null;
      if (suppliesRecipient(body.metadata)) {
        const granted = await requireGrant(
          context,
          plan.additionalAuthorizationPolicies.suppliedRecipient!,
          'DELIVERY_RECIPIENT_SUPPLY_FORBIDDEN',
          'A dispatch that names its own recipient address needs its own grant',
        );
        subject = granted.subject ?? subject;
      }
      const result = await dispatcher.dispatch({ ...body, actor: subject, signal: context.signal });
      return result as unknown as z.input<typeof invitationDispatchResponseSchema>;
    },
  });
}
