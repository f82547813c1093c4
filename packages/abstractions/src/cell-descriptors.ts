import { z } from 'zod';

/**
 * zod schemas of the cell catalogs (spec 2.5, 4.4): boundaries, routes, health isolations and traffic
 * automations. Descriptors are authored by modules; materialization state is reported at run time by the
 * provider or edge materializers and merged in by the engine.
 */

export const materializationStateSchema = z.enum(['pending', 'applied', 'unavailable', 'failed']);
export type MaterializationState = z.infer<typeof materializationStateSchema>;

/** Who applies a traffic automation: nobody (descriptive), the traffic provider, edge nodes, or both. */
export const materializationModeSchema = z.enum([
  'none',
  'provider-managed',
  'edge-managed',
  'provider-and-edge-managed',
]);
export type MaterializationMode = z.infer<typeof materializationModeSchema>;

const tags = z.array(z.string()).default([]);
const metadata = z.record(z.string(), z.unknown()).default({});

export const cellBoundarySchema = z.object({
  id: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().default(''),
  sourceModuleId: z.string().min(1),
  /** Region, zone or shard the cell is pinned to. */
  placement: z.string().default(''),
  /** Modules served inside the boundary. */
  moduleIds: z.array(z.string()).default([]),
  tags,
  metadata,
});
export type CellBoundaryDescriptor = z.infer<typeof cellBoundarySchema>;

export const cellRouteSchema = z.object({
  id: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().default(''),
  sourceModuleId: z.string().min(1),
  cellId: z.string().min(1),
  /** What the route matches: a path prefix, a tenant key, a header... (descriptive). */
  match: z.record(z.string(), z.string()).default({}),
  /** Dimensions a materializer must satisfy for this route: `provider`, `edge`, or both. */
  requiredDimensions: z.array(z.enum(['provider', 'edge'])).default([]),
  tags,
  metadata,
});
export type CellRouteDescriptor = z.infer<typeof cellRouteSchema>;

export const cellHealthIsolationSchema = z.object({
  id: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().default(''),
  sourceModuleId: z.string().min(1),
  cellId: z.string().min(1),
  /** Dependency-health contributor ids whose failure stays inside this cell. */
  dependencyIds: z.array(z.string()).default([]),
  mode: z.enum(['isolate', 'drain', 'failover']).default('isolate'),
  tags,
  metadata,
});
export type CellHealthIsolationDescriptor = z.infer<typeof cellHealthIsolationSchema>;

export const cellTrafficAutomationSchema = z.object({
  id: z.string().min(1),
  displayName: z.string().min(1),
  description: z.string().default(''),
  sourceModuleId: z.string().min(1),
  cellId: z.string().min(1),
  routeId: z.string().min(1).nullable().default(null),
  providerId: z.string().min(1).nullable().default(null),
  edgeNodeIds: z.array(z.string().min(1)).default([]),
  automationMode: z.enum(['manual', 'automatic', 'advisory']).default('automatic'),
  trigger: z.string().min(1),
  action: z.string().min(1),
  materializationMode: materializationModeSchema.default('none'),
  policySource: z.string().default('module'),
  /** Dependency ids whose health triggers the automation (dependency linkage). */
  dependencyIds: z.array(z.string()).default([]),
  transportHints: z.record(z.string(), z.string()).default({}),
  /** Higher wins when several automations match one route. */
  priority: z.number().int().default(0),
  tags,
  metadata,
});
export type CellTrafficAutomationDescriptor = z.infer<typeof cellTrafficAutomationSchema>;

/** A materializer's report about one traffic automation. */
export const materializationReportSchema = z.object({
  materializerId: z.string().min(1),
  state: materializationStateSchema,
  observedAtUtc: z.string().datetime().optional(),
  error: z.string().max(2000).optional(),
  /** Edge reports only: what the edge did (action taken, targeted nodes...), published as edgeMaterialization.*. */
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
});
export type MaterializationReport = z.infer<typeof materializationReportSchema>;
