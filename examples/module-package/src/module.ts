// The module this example package ships. It is built to dist/module.js (one ES module: zod and the two
// abstractions helpers are bundled in), and the engine imports it only after the package passed
// Engine:PackagePolicy and Engine:Trust.
import { defineOperation, operationResponse, type ModuleDefinition } from '@corekit/abstractions';
import { z } from 'zod';

const version = '1.0.0';
let startedAt: number | null = null;

const statusSchema = z.object({
  module: z.literal('operations-status'),
  version: z.string(),
  state: z.string(),
  readiness: z.string(),
  liveness: z.string(),
  moduleStartedAtUtc: z.string().nullable(),
  packages: z.array(
    z.object({
      id: z.string(),
      version: z.string(),
      outcome: z.string(),
      verification: z.string().nullable(),
      certificateThumbprint: z.string().nullable(),
    }),
  ),
});

/**
 * `operations-status`: answers `GET /api/operations/status` with the runtime state, readiness and the module
 * packages the engine discovered, so an operator can see that the out-of-tree flow worked end to end.
 */
const operationsStatusModule: ModuleDefinition = {
  id: 'operations-status',
  version,
  displayName: 'Operations status',
  description: 'Runtime state, readiness and loaded module packages at GET /api/operations/status.',
  capabilities: ['operations.status.read'],
  start() {
    startedAt = Date.now();
  },
  stop() {
    startedAt = null;
  },
  operations: [
    defineOperation({
      id: 'operations-status.get',
      method: 'GET',
      path: '/api/operations/status',
      summary: 'Runtime state, readiness and the module packages the engine discovered',
      authorization: { mode: 'anonymous' },
      result: statusSchema,
      handler(_input, { engine }) {
        const status = engine.status();
        const body = {
          module: 'operations-status',
          version,
          state: status.state,
          readiness: status.readiness,
          liveness: status.liveness,
          moduleStartedAtUtc: startedAt === null ? null : new Date(startedAt).toISOString(),
          packages: engine.packages().map((record) => ({
            id: record.id,
            version: record.version,
            outcome: record.outcome,
            verification: record.verification ?? null,
            certificateThumbprint: record.certificateThumbprint ?? null,
          })),
        };
        // Like /health/ready: a runtime that cannot serve answers 503 so a load balancer can act on it.
        return operationResponse(status.readiness === 'Unhealthy' ? 503 : 200, body);
      },
    }),
  ],
};

export default operationsStatusModule;
