import { z } from 'zod';

/**
 * zod schemas of the catalog descriptors of spec 2.4. Packs and modules fill them; the engine validates every
 * contribution against them at build time.
 */

const common = {
  id: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().default(''),
  sourceModuleId: z.string().min(1),
};
const tags = z.array(z.string()).default([]);
const metadata = z.record(z.string(), z.unknown()).default({});

export const executionGraphNodeSchema = z.object({
  id: z.string().min(1),
  displayName: z.string().optional(),
  moduleId: z.string().min(1),
  capabilityKey: z.string().min(1),
});
export const executionGraphEdgeSchema = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  label: z.string().optional(),
  condition: z.string().optional().describe('routing condition, descriptive only'),
});
export const executionGraphSchema = z.object({
  ...common,
  entryNodeId: z.string().min(1),
  nodes: z.array(executionGraphNodeSchema).min(1),
  edges: z.array(executionGraphEdgeSchema).default([]),
});
export type ExecutionGraphDescriptor = z.infer<typeof executionGraphSchema>;

export const hostedExecutionSchema = z.object({
  ...common,
  kind: z.string().min(1),
  executionGraphId: z.string().min(1).nullable().default(null),
  startsWithHost: z.boolean().default(false),
});
export type HostedExecutionDescriptor = z.infer<typeof hostedExecutionSchema>;

export const dataProductSchema = z.object({
  ...common,
  domainId: z.string().min(1),
  contractId: z.string().min(1),
  mode: z.string().min(1),
  tags,
  metadata,
});
export type DataProductDescriptor = z.infer<typeof dataProductSchema>;

export const projectionSchema = z.object({
  ...common,
  targetStoreId: z.string().min(1),
  mode: z.string().min(1),
  sourceContracts: z.array(z.string()).default([]),
  tags,
  metadata,
});
export type ProjectionDescriptor = z.infer<typeof projectionSchema>;

export const outboxSchema = z.object({
  ...common,
  provider: z.string().min(1),
  mode: z.string().min(1),
  channelIds: z.array(z.string()).default([]),
  tags,
  metadata,
});
export type OutboxDescriptor = z.infer<typeof outboxSchema>;

export const inboxSchema = outboxSchema;
export type InboxDescriptor = z.infer<typeof inboxSchema>;

export const executionBindingSchema = z.object({
  authoredExecutionRuntimeId: z.string().nullable().default(null),
  requestedExecutionRuntimeId: z.string().nullable().default(null),
  effectiveExecutionRuntimeId: z.string().nullable().default(null),
  resolvedOwnershipMode: z.string().nullable().default(null),
  executionTopology: z.string().nullable().default(null),
  selectionReason: z.string().nullable().default(null),
});

export const cdcCaptureSchema = z.object({
  ...common,
  provider: z.string().min(1),
  sourceId: z.string().min(1),
  outboxId: z.string().min(1).nullable().default(null),
  mode: z.string().min(1),
  eventFormat: z.string().min(1),
  resourceIds: z.array(z.string()).default([]),
  tags,
  metadata,
  executionBinding: executionBindingSchema.optional(),
});
export type CdcCaptureDescriptor = z.infer<typeof cdcCaptureSchema>;

export const authorizationPolicyModeSchema = z.enum(['RBAC', 'ABAC', 'Policy']);
export const authorizationPolicySchema = z.object({
  id: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().default(''),
  modes: z.array(authorizationPolicyModeSchema).min(1),
  tags,
  metadata,
});
export type AuthorizationPolicyDescriptor = z.infer<typeof authorizationPolicySchema>;

export const eventPublicationRequestSchema = z.object({
  id: z.string().min(1).optional(),
  channelId: z.string().min(1),
  eventType: z.string().min(1),
  payload: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  occurredAtUtc: z.string().datetime().optional(),
  contentType: z.string().default('application/json'),
  correlationId: z.string().optional(),
  tenantId: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  actorId: z.string().optional(),
});
export type EventPublicationRequest = z.infer<typeof eventPublicationRequestSchema>;

export const agentToolRunRequestSchema = z.object({
  runId: z.string().min(1).optional(),
  actorId: z.string().optional(),
  correlationId: z.string().optional(),
  attempt: z.number().int().positive().optional(),
  arguments: z.string().default(''),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type AgentToolRunRequest = z.infer<typeof agentToolRunRequestSchema>;

export const knowledgeQueryRequestSchema = z.object({
  queryText: z.string().min(1),
  maxResults: z.number().int().positive().max(1000).optional(),
  actorId: z.string().optional(),
  correlationId: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type KnowledgeQueryRequest = z.infer<typeof knowledgeQueryRequestSchema>;
