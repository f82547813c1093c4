import {
  dependenciesDocumentSchema,
  diagnosticsDocumentSchema,
  engineIndexDocumentSchema,
  healthReportSchema,
  healthSummarySchema,
  manifestDocumentSchema,
  packagesDocumentSchema,
  policyDocumentSchema,
  runtimeStoryDocumentSchema,
  snapshotDocumentSchema,
  statusDocumentSchema,
  technologySurfacesDocumentSchema,
  formatDuration,
  type Engine,
  type HealthReport,
} from '@corekit/abstractions';
import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import { z, type ZodType } from 'zod';
import { healthStatusCode, summarize } from './health-exposure';
import type { HostRoute, JsonAnswer } from './host-route';
import type { ShowDetails } from './web-host-options';
import { webHostEventIdRange } from './web-host-event-ids';

/** The health routes, in the order the diagnostics document lists them. */
export const healthRoutePaths = ['/health', '/health/live', '/health/ready', '/health/startup'] as const;

/**
 * The startup signal: Healthy once the runtime has reached Started (and while it stops after that), Unhealthy
 * while it is Created, Starting, Failed or Stopped. It never reads a dependency: a startup probe on it gates
 * the liveness and readiness probes until the engine has started, whatever the dependencies do.
 */
export function startupReport(engine: Engine): HealthReport {
  const began = performance.now();
  const { runtime, checkedAtUtc } = engine.liveness();
  const started = runtime.state === 'Started' || runtime.state === 'Stopping';
  const durationMs = Math.round((performance.now() - began) * 1000) / 1000;
  return {
    status: started ? 'Healthy' : 'Unhealthy',
    duration: formatDuration(durationMs),
    durationMs,
    checkedAtUtc,
    runtime,
    reasons: started
      ? []
      : [
          runtime.state === 'Failed'
            ? 'the runtime failed to start'
            : `the runtime is ${runtime.state}; the startup signal turns Healthy once it has Started`,
        ],
  };
}

function sendJson(response: Response, body: unknown, status = 200): void {
  response.status(status).setHeader('Cache-Control', 'no-store');
  response.json(body);
}

/**
 * Reads a report once per turn of the event loop: requests arriving together (orchestrators, load balancers and
 * benchmarks send them in bursts) share one computation, and the next turn computes afresh, so an answer is never
 * older than the I/O callbacks it arrived with.
 */
function oncePerTurn<T>(compute: () => T): () => T {
  let cached: { readonly value: T } | undefined;
  return () => {
    if (cached) return cached.value;
    const value = compute();
    cached = { value };
    setImmediate(() => (cached = undefined));
    return value;
  };
}

/** `/health`, `/health/live`, `/health/ready`, `/health/startup`: 200 when Healthy or Degraded, 503 when Unhealthy. */
export function healthRoutes(
  engine: Engine,
  showDetails: ShowDetails,
  detailsAllowed: (request: IncomingMessage) => boolean | Promise<boolean>,
): HostRoute[] {
  const schema: ZodType =
    showDetails === 'Always'
      ? healthReportSchema
      : showDetails === 'Never'
        ? healthSummarySchema
        : z.union([healthReportSchema, healthSummarySchema]);
  const detailNote =
    showDetails === 'Always'
      ? 'Every caller sees the details.'
      : showDetails === 'Never'
        ? 'Details are never shown (Engine:Web:Health:ShowDetails is Never): the body carries the status only.'
        : 'Details are shown only to requests the host authorizes (Engine:Web:Health:ShowDetails is WhenAuthorized); other callers get the status only.';
  const route = (
    path: string,
    rel: string,
    summary: string,
    description: string,
    compute: () => HealthReport,
  ): HostRoute => {
    const read = oncePerTurn(compute);
    const answer = (request: IncomingMessage): JsonAnswer | Promise<JsonAnswer> => {
      const report = read();
      const shape = (show: boolean): JsonAnswer => ({
        status: healthStatusCode(report),
        body: show ? report : summarize(report),
      });
      const allowed = detailsAllowed(request);
      return typeof allowed === 'boolean' ? shape(allowed) : allowed.then(shape);
    };
    return {
      method: 'get',
      path,
      rel,
      summary,
      description: `${description} ${detailNote}`,
      tags: ['Health'],
      servedWhileDraining: true,
      responses: {
        200: { description: 'Healthy or Degraded', schema },
        503: { description: 'Unhealthy', schema },
      },
      answer,
      handler: async (request, response) => {
        const { status, body } = await answer(request);
        sendJson(response, body, status);
      },
    };
  };
  return [
    route(
      '/health',
      'health',
      'Overall health',
      'The worse of liveness and readiness, with every reason.',
      () => engine.health(),
    ),
    route(
      '/health/live',
      'health-live',
      'Liveness',
      'Healthy while the process is alive, including startup and the shutdown drain (ShutdownLivenessGracePeriod); Unhealthy once the runtime is Failed or Stopped or the drain outlasts the grace period; Degraded when a dependency is not Healthy.',
      () => engine.liveness(),
    ),
    route(
      '/health/ready',
      'health-ready',
      'Readiness',
      'Healthy only once the runtime has Started and the StartupReadinessDelay window has ended; Unhealthy during startup, shutdown, when stopped or failed, or when a required dependency is Unhealthy; Degraded when only optional dependencies fail or required ones are degraded.',
      () => engine.readiness(),
    ),
    route(
      '/health/startup',
      'health-startup',
      'Startup',
      "Healthy once the runtime has reached Started (and while it stops afterwards); Unhealthy while it is Created, Starting, Failed or Stopped. It never depends on dependency health: point the orchestrator's startup probe here, so liveness and readiness are probed only once the engine has started.",
      () => startupReport(engine),
    ),
  ];
}

/** A link of the `/engine` index, built from the routes the host serves. */
export interface EngineLink {
  readonly rel: string;
  readonly href: string;
  readonly method: string;
  readonly templated: boolean;
  readonly description: string;
}

/** Every `/engine` read surface of spec 4.1 plus the index itself. */
export function engineSurfaceRoutes(
  engine: Engine,
  links: () => EngineLink[],
  transports: () => Array<{ name: string; operations: string[] }> = () => [],
): HostRoute[] {
  const read = (
    path: string,
    rel: string,
    summary: string,
    schema: ZodType,
    produce: () => unknown,
    description?: string,
  ): HostRoute => ({
    method: 'get',
    path,
    rel,
    summary,
    description,
    tags: ['Engine'],
    responses: { 200: { description: summary, schema } },
    handler: (_request, response) => sendJson(response, produce()),
  });
  const snapshotSchema = snapshotDocumentSchema.extend(
    Object.fromEntries(
      engine.catalogs().map((view) => [view.definition.snapshotField, z.array(view.definition.entrySchema)]),
    ),
  );
  return [
    read('/engine', 'engine', 'Index of every surface', engineIndexDocumentSchema, () => ({
      name: engine.manifest().engine.name,
      version: engine.manifest().engine.version,
      state: engine.state,
      links: links(),
    })),
    read('/engine/status', 'status', 'Runtime status', statusDocumentSchema, () => engine.status()),
    read(
      '/engine/dependencies',
      'dependencies',
      'Dependency health snapshot',
      dependenciesDocumentSchema,
      () => engine.dependencies(),
      'The last result of every registered dependency contributor, read from cache (requests never run a check).',
    ),
    read(
      '/engine/diagnostics',
      'diagnostics',
      'Diagnostics conventions and current health',
      diagnosticsDocumentSchema,
      () => {
        const document = engine.diagnostics([...healthRoutePaths]);
        return { ...document, eventIds: [...document.eventIds, webHostEventIdRange] };
      },
      'Meter and activity source names, counter names, the event-id catalog, current liveness and readiness reports, dependency details and the mapped health routes.',
    ),
    read(
      '/engine/runtime-story',
      'runtime-story',
      'Runtime story',
      runtimeStoryDocumentSchema,
      () => engine.runtimeStory(),
      'Current status, last failure, loaded packages, per-module and per-execution lifecycle and the ordered timeline.',
    ),
    read('/engine/manifest', 'manifest', 'Engine and module manifest', manifestDocumentSchema, () => ({
      ...engine.manifest(),
      transports: transports(),
    })),
    read(
      '/engine/snapshot',
      'snapshot',
      'Merged runtime snapshot',
      snapshotSchema,
      () => engine.snapshot(),
      'Status, manifest, dependencies, packages, policies, technology surfaces and every registered catalog under its snapshot field.',
    ),
    read('/engine/packages', 'packages', 'Discovered packages', packagesDocumentSchema, () =>
      engine.packages(),
    ),
    read('/engine/package-policy', 'package-policy', 'Package policy', policyDocumentSchema, () =>
      engine.packagePolicy(),
    ),
    read('/engine/trust-policy', 'trust-policy', 'Trust policy', policyDocumentSchema, () =>
      engine.trustPolicy(),
    ),
    read(
      '/engine/technology-surfaces',
      'technology-surfaces',
      'Active technology surfaces',
      technologySurfacesDocumentSchema,
      () => engine.technologySurfaces(),
    ),
  ];
}
