import { z } from 'zod';
import {
  dependencyHealthEntrySchema,
  failureContextSchema,
  healthReportSchema,
  healthStatusSchema,
  runtimeStateSchema,
} from './health';

/**
 * zod schemas of the documents the `/engine` read surfaces and the health routes answer with. Hosts use them
 * to generate their OpenAPI document; tests use them to check that what the engine answers is what is
 * documented. They mirror the TypeScript interfaces of `engine.ts`.
 */

/**
 * A health answer with the details withheld (`Engine:Web:Health:ShowDetails` is Never, or WhenAuthorized and
 * the request is not authorized). The status is always present: hiding it would break every orchestrator.
 */
export const healthSummarySchema = healthReportSchema.pick({
  status: true,
  duration: true,
  durationMs: true,
  checkedAtUtc: true,
});
export type HealthSummary = z.infer<typeof healthSummarySchema>;

/** `GET /engine/status`. */
export const statusDocumentSchema = z.object({
  state: runtimeStateSchema,
  liveness: healthStatusSchema,
  readiness: healthStatusSchema,
  startedAtUtc: z.string().nullable(),
  restartCount: z.number().int(),
  lastFailure: failureContextSchema.nullable(),
  restartAvailableAtUtc: z.string().nullable(),
  activeWindow: z.string().nullable(),
  activeWindowEndsAtUtc: z.string().nullable(),
});

/** `GET /engine/dependencies`: the cached result of every registered dependency contributor. */
export const dependenciesDocumentSchema = z.array(dependencyHealthEntrySchema);

/** One component's event-id ranges (spec 6); each range is `[first, last]`, both inclusive. */
export const eventIdRangeSchema = z.object({
  component: z.string(),
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
  names: z.record(z.string(), z.string()).optional().describe('a short name per event id'),
});

/** `GET /engine/diagnostics`. */
export const diagnosticsDocumentSchema = z.object({
  meterName: z.string(),
  activitySourceName: z.string(),
  counters: z
    .record(
      z.string(),
      z.object({
        kind: z.enum(['counter', 'histogram']),
        description: z.string(),
        unit: z.string().optional(),
      }),
    )
    .describe(
      "every instrument on the engine's meter (engine and packs), keyed by instrument name: kind, description, unit",
    ),
  conventions: z.record(z.string(), z.string()),
  eventIds: z.array(eventIdRangeSchema),
  liveness: healthReportSchema,
  readiness: healthReportSchema,
  dependencies: dependenciesDocumentSchema,
  healthRoutes: z.array(z.string()).describe('the health routes the host maps'),
  warnings: z
    .array(
      z.object({
        code: z.string(),
        message: z.string(),
        keyPath: z.string().optional(),
        eventId: z.number().int(),
      }),
    )
    .describe('registration warnings, such as an add*Health call that found no dependency to check'),
  jobs: z
    .array(
      z.object({
        id: z.string(),
        owner: z.string().nullable(),
        intervalMs: z.number().nullable(),
        runOnStartup: z.boolean(),
        startupDelayMs: z.number(),
        running: z.boolean(),
        runCount: z.number().int(),
        failureCount: z.number().int(),
        lastTrigger: z.enum(['startup', 'interval', 'manual']).nullable(),
        lastStartedAtUtc: z.string().nullable(),
        lastCompletedAtUtc: z.string().nullable(),
        lastOutcome: z.enum(['completed', 'failed']).nullable(),
        lastError: z.string().nullable(),
        nextRunAtUtc: z.string().nullable(),
      }),
    )
    .describe('background jobs of the engine and its packs'),
});

/** A package discovered out of tree; packs and discovery add fields (signature, certificate thumbprint...). */
export const packageRecordSchema = z.looseObject({
  id: z.string(),
  version: z.string(),
  directory: z.string(),
  outcome: z.enum(['loaded', 'denied', 'rejected', 'failed']),
  reasons: z.array(z.string()),
});

/** `GET /engine/packages`. */
export const packagesDocumentSchema = z.array(packageRecordSchema);

/** `GET /engine/package-policy` and `GET /engine/trust-policy`: the effective policy as configured. */
export const policyDocumentSchema = z.record(z.string(), z.unknown());

export const runtimeStoryEntrySchema = z.object({
  sequence: z.number().int().describe('monotonic; a gap means older entries were dropped by the bound'),
  atUtc: z.string(),
  kind: z
    .string()
    .describe(
      'runtime, module, package, restart, failure, execution-graph, hosted-execution, hosted-service, job, or a pack kind',
    ),
  subjectId: z.string().nullable(),
  transition: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const moduleLifecycleSchema = z.object({
  moduleId: z.string(),
  version: z.string(),
  state: z.string(),
  loadedAtUtc: z.string().nullable(),
  initializedAtUtc: z.string().nullable(),
  startedAtUtc: z.string().nullable(),
  stoppedAtUtc: z.string().nullable(),
});

export const executionLifecycleSchema = z.object({
  id: z.string(),
  kind: z.enum(['execution-graph', 'hosted-execution']),
  state: z.string(),
  loadedAtUtc: z.string().nullable(),
  activeAtUtc: z.string().nullable(),
  deactivatedAtUtc: z.string().nullable(),
});

/** `GET /engine/runtime-story`. */
export const runtimeStoryDocumentSchema = z.object({
  status: runtimeStateSchema,
  restartCount: z.number().int(),
  lastFailure: failureContextSchema.nullable(),
  packages: packagesDocumentSchema,
  modules: z.array(moduleLifecycleSchema),
  executions: z.array(executionLifecycleSchema),
  timeline: z.array(runtimeStoryEntrySchema),
  maxEntries: z.number().int(),
  droppedEntries: z.number().int(),
});

/** `GET /engine/manifest`. */
export const manifestDocumentSchema = z.object({
  engine: z.object({
    name: z.string(),
    version: z.string(),
    packSpecificationVersions: z.array(z.number().int()),
  }),
  service: z.object({
    name: z.string(),
    version: z.string().nullable(),
    source: z.enum(['Engine:Service', 'OTEL_SERVICE_NAME', 'OTEL_RESOURCE_ATTRIBUTES', 'default']),
    instanceId: z.string(),
  }),
  modules: z.array(
    z.object({
      id: z.string(),
      version: z.string(),
      displayName: z.string(),
      capabilities: z.array(z.string()),
      origin: z.enum(['code', 'package']),
    }),
  ),
  packs: z
    .array(z.object({ packageName: z.string(), specificationVersion: z.number().int() }))
    .describe('packs that declared the pack contract specification they implement'),
  transports: z
    .array(z.object({ name: z.string(), operations: z.array(z.string()) }))
    .optional()
    .describe('on a web host: every transport served, with the behavior operations each adapter mounted'),
});

/** One entry of `GET /engine/technology-surfaces` (spec 2.5). */
export const technologySurfaceSchema = z.object({
  id: z.string(),
  kind: z.string(),
  displayName: z.string(),
  sourcePackage: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export const technologySurfacesDocumentSchema = z.array(technologySurfaceSchema);

/**
 * `GET /engine/snapshot`: the merged runtime answer. Every registered catalog adds its entries under its
 * `snapshotField`, so the set of fields depends on the packs in use (hosts document them per engine).
 */
export const snapshotDocumentSchema = z.looseObject({
  generatedAtUtc: z.string(),
  status: statusDocumentSchema,
  manifest: manifestDocumentSchema,
  dependencies: dependenciesDocumentSchema,
  packages: packagesDocumentSchema,
  packagePolicy: policyDocumentSchema,
  trustPolicy: policyDocumentSchema,
  technologySurfaces: technologySurfacesDocumentSchema,
});

/** A link of the `/engine` index. */
export const engineLinkSchema = z.object({
  rel: z.string().describe('stable name of the surface, e.g. "status" or a catalog id'),
  href: z.string().describe('the path; a templated link has `{name}` parameters to fill in'),
  method: z.string(),
  templated: z.boolean(),
  description: z.string(),
});

/** `GET /engine`: an index of every surface the host serves, with links. */
export const engineIndexDocumentSchema = z.object({
  name: z.string(),
  version: z.string(),
  state: runtimeStateSchema,
  links: z.array(engineLinkSchema),
});

/** A runtime event as pushed by the live transports (server-sent events, WebSocket). */
export const runtimeEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('health-changed'),
    probe: z.enum(['liveness', 'readiness']),
    status: healthStatusSchema,
    previous: healthStatusSchema,
    atUtc: z.string(),
  }),
  z.object({
    type: z.literal('dependency-changed'),
    dependencyId: z.string(),
    status: healthStatusSchema,
    previous: healthStatusSchema.nullable(),
    atUtc: z.string(),
  }),
  z.object({
    type: z.literal('dependency-checked'),
    entry: dependencyHealthEntrySchema,
    atUtc: z.string(),
  }),
  z.object({ type: z.literal('runtime-story'), entry: runtimeStoryEntrySchema }),
  z.object({
    type: z.literal('pack-event'),
    name: z.string(),
    subjectId: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    atUtc: z.string(),
  }),
]);

/**
 * An RFC 9457 problem details body (`application/problem+json`). `code` is the stable machine-readable
 * error code to branch on; `title` and `detail` are for people and may change.
 */
export const problemDetailsSchema = z.looseObject({
  type: z.string().describe('URI reference identifying the problem type'),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  code: z.string(),
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('what was wrong with the request, one entry per problem'),
});
export type ProblemDetails = z.infer<typeof problemDetailsSchema>;
