import type {
  DependencyCheckResult,
  DependencyHealthContributor,
  HealthStatus,
  ModuleDefinition,
} from '@corekit/abstractions';
import { manualClock } from '../clock';
import { createEngineBuilder, type EngineBuilderOptions } from '../engine-builder';
import { createMemoryLogger } from '../logger';

/** A contributor whose answer the test sets; counts its runs. */
export function controllableContributor(
  id: string,
  options: {
    required?: boolean;
    status?: HealthStatus;
    refreshIntervalSeconds?: number;
    timeoutSeconds?: number;
  } = {},
) {
  let next: DependencyCheckResult = { status: options.status ?? 'Healthy' };
  const contributor: DependencyHealthContributor & { runs: number; set(status: HealthStatus): void } = {
    id,
    displayName: `Dependency ${id}`,
    required: options.required ?? true,
    kind: 'Test',
    refreshIntervalSeconds: options.refreshIntervalSeconds ?? 30,
    timeoutSeconds: options.timeoutSeconds ?? 1,
    runs: 0,
    set(status) {
      next = { status, description: `set to ${status}` };
    },
    async check() {
      contributor.runs++;
      return next;
    },
  };
  return contributor;
}

export function failingModule(id: string, message = 'boom'): ModuleDefinition {
  return {
    id,
    version: '1.0.0',
    start() {
      throw Object.assign(new Error(message), { code: 'MODULE_BOOM' });
    },
  };
}

/** A builder wired to a manual clock and an in-memory logger, with nothing read from disk or env. */
export function testBuilder(options: Partial<EngineBuilderOptions> = {}) {
  const clock = manualClock();
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    contentRoot: '/nonexistent',
    environment: {},
    clock,
    logger,
    ...options,
  });
  return { builder, clock, logger };
}
