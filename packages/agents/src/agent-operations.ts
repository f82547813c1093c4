import {
  defineOperation,
  identifierSchema,
  OperationError,
  type OperationDefinition,
} from '@corekit/abstractions';
import { z } from 'zod';
import { agentToolExecutionResultSchema, toolRunRequestSchema } from './run-model';
import type { RunService } from './run-service';

/** Named policy the approval decision operation asks the host's authorizer for. */
export const approvalPolicyName = 'agents.approve';
/** Named policy the run operation asks the host's authorizer for. */
export const runPolicyName = 'agents.run';
/**
 * `kind` of the authorization resource of a decision: `{ kind, id: runId, requestedBy }`, where `requestedBy`
 * is the subject that requested the run (else the actor it named).
 */
export const agentRunResourceKind = 'agent-tool-run';
/**
 * `kind` of the authorization resource of a run request: `{ kind, id: toolId, tenantId }`, the tenant being the
 * request's `metadata.tenantId` when it names one (so a host scoping credentials to tenants decides per tenant).
 */
export const agentToolResourceKind = 'agent-tool';

function runRequestResource(input: { params?: unknown; body?: unknown }) {
  const toolId = (input.params as { toolId?: unknown } | undefined)?.toolId;
  const metadata = (input.body as { metadata?: unknown } | undefined)?.metadata;
  const tenantId = (metadata as { tenantId?: unknown } | undefined)?.tenantId;
  return {
    kind: agentToolResourceKind,
    ...(typeof toolId === 'string' ? { id: toolId } : {}),
    ...(typeof tenantId === 'string' && tenantId !== '' ? { tenantId } : {}),
  };
}

const decisionBodySchema = z
  .object({
    decision: z.enum(['approve', 'deny']),
    /** The deciding actor; the authorized principal's subject wins when the host supplies one. */
    actorId: z.string().min(1).max(200).optional(),
    reason: z.string().max(1000).optional(),
  })
  .strict();

/** `POST /engine/agent-tools/{toolId}/runs` and `POST /engine/agent-tool-runs/{runId}/decision`. */
export function agentOperations(service: RunService): OperationDefinition<any, any, any, any>[] {
  const run = defineOperation({
    id: 'agents.run-tool',
    method: 'POST',
    path: '/engine/agent-tools/:toolId/runs',
    summary: 'Run an agent tool',
    description:
      'Body: tool run request (runId, actorId, correlationId, attempt, arguments as a JSON string, metadata; ' +
      'defaults generated). Answers AgentToolExecutionResult.',
    tags: ['agents'],
    params: z.object({ toolId: identifierSchema }),
    body: toolRunRequestSchema,
    result: agentToolExecutionResultSchema,
    authorization: { mode: 'required', policy: runPolicyName },
    authorizationResource: runRequestResource,
    errors: {
      'invalid-input': 'the body is invalid, or arguments are not JSON or fail the tool schema',
      'not-found': 'the tool id is unknown',
      'not-active': 'agent tool execution is not active',
      conflict: 'the tool has no executor, or the run id is executing or belongs to another tool',
    },
    handler: ({ params, body }, context) =>
      service.request(params.toolId, body, context.principal, context.signal),
  });
  const decide = defineOperation({
    id: 'agents.decide-run',
    method: 'POST',
    path: '/engine/agent-tool-runs/:runId/decision',
    summary: 'Approve or deny an agent tool run waiting for approval',
    description:
      'An approved run executes at once (with retry) and the answer is its AgentToolExecutionResult.',
    tags: ['agents'],
    params: z.object({ runId: identifierSchema }),
    body: decisionBodySchema,
    result: agentToolExecutionResultSchema,
    authorization: { mode: 'required', policy: approvalPolicyName },
    // The approve policy sees who requested the run, so it can refuse the requester (separation of duties).
    authorizationResource: async ({ params }) => {
      const runId = identifierSchema.safeParse((params as Record<string, unknown> | undefined)?.runId);
      if (!runId.success) return { kind: agentRunResourceKind };
      const requestedBy = await service.requesterOf(runId.data);
      return { kind: agentRunResourceKind, id: runId.data, ...(requestedBy ? { requestedBy } : {}) };
    },
    errors: {
      'invalid-input': 'the body is invalid or no deciding actor is known',
      'not-found': 'the run does not exist',
      'not-active': 'agent tool execution is not active',
      conflict: 'the run is not waiting for approval (decided already, or never needed it)',
    },
    handler: ({ params, body }, context) => {
      const actorId = context.principal?.subject ?? body.actorId;
      if (!actorId) {
        throw new OperationError(
          'invalid-input',
          'AGENT_TOOL_DECISION_ACTOR_REQUIRED',
          'the deciding actor is unknown: authorize the call or pass actorId',
        );
      }
      return service.decide(
        params.runId,
        {
          decision: body.decision,
          actorId,
          principalSubject: context.principal?.subject ?? null,
          reason: body.reason,
        },
        context.signal,
      );
    },
  });
  return [run, decide];
}
