import type { DependencyCheckResult, DependencyHealthContributor } from '@corekit/abstractions';

/** How the next checks of a switchable dependency answer. */
export type DependencyMode = 'healthy' | 'degraded' | 'failed' | 'hang';

export interface SwitchableDependency extends DependencyHealthContributor {
  mode: DependencyMode;
  /** Extra facts every answer carries in `data`. */
  data: Record<string, unknown>;
}

/**
 * An in-process dependency whose answer the test switches; `hang` never answers, so the scheduler's timeout
 * ends the run (reported timed out). Refreshes often so a change is seen quickly.
 */
export function switchableDependency(
  id: string,
  options: { required?: boolean; refreshIntervalSeconds?: number; timeoutSeconds?: number } = {},
): SwitchableDependency {
  const dependency: SwitchableDependency = {
    id,
    displayName: `Dependency ${id}`,
    kind: 'Test',
    required: options.required ?? true,
    refreshIntervalSeconds: options.refreshIntervalSeconds ?? 0.2,
    timeoutSeconds: options.timeoutSeconds ?? 0.3,
    mode: 'healthy',
    data: { serverVersion: '1.2.3', role: 'primary' },
    check: (signal) => {
      const data = dependency.data;
      const answers: Record<Exclude<DependencyMode, 'hang'>, DependencyCheckResult> = {
        healthy: { status: 'Healthy', data },
        degraded: { status: 'Degraded', description: 'replica lag over 5 s', data },
        failed: {
          status: 'Unhealthy',
          error: { code: 'ECONNREFUSED', message: `connection to ${id} refused` },
          data,
        },
      };
      if (dependency.mode === 'hang') {
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        );
      }
      return Promise.resolve(answers[dependency.mode]);
    },
  };
  return dependency;
}
