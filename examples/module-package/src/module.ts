// The module this example package ships. It is built to dist/module.js (ES module, no runtime imports), and
// the engine imports it only after the package passed Engine:PackagePolicy and Engine:Trust.
import type { RoutedModuleDefinition } from '@corekit/engine-core';

const version = '1.0.0';
let startedAt: number | null = null;

/**
 * `operations-status`: answers `GET /api/operations/status` with the runtime state, readiness and the module
 * packages the engine discovered, so an operator can see that the out-of-tree flow worked end to end.
 */
const operationsStatusModule: RoutedModuleDefinition = {
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
  routes: [
    {
      method: 'GET',
      path: '/api/operations/status',
      summary: 'Runtime state, readiness and the module packages the engine discovered',
      handle({ engine }) {
        const status = engine.status();
        return {
          // Like /health/ready: a runtime that cannot serve answers 503 so a load balancer can act on it.
          status: status.readiness === 'Unhealthy' ? 503 : 200,
          body: {
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
          },
        };
      },
    },
  ],
};

export default operationsStatusModule;
