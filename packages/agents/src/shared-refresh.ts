import type { EngineBuilder } from '@corekit/abstractions';
import type { RunService } from './run-service';

/** The job that keeps a replica's run catalog in step with a shared store. */
export interface SharedRefresh {
  /** Starts triggering the job every interval (called when the engine started on a shared provider). */
  start(): void;
  stop(): void;
  /** When the last pass completed, null before the first (or on a store that is not shared). */
  lastRefreshedAtUtc(): string | null;
  /** Runs this replica reported interrupted after their owner's lease ended, since it started. */
  interruptedTotal(): number;
}

/**
 * Registers the manual job `agents.shared-store-refresh` (reload the runs other replicas wrote, then interrupt
 * runs whose owner's lease ended: `RunService.sweep`) and triggers it every `intervalMs` while the engine runs
 * on a shared provider. On a store that is not shared the job is never triggered: the copy of the runs is
 * then complete after each local write, and the story carries no refresh entries.
 */
export function sharedRefresh(
  builder: EngineBuilder,
  service: RunService,
  intervalMs: number,
  now: () => number,
): SharedRefresh {
  let lastAtUtc: string | null = null;
  let interrupted = 0;
  const job = builder.addJob<number>({
    id: 'agents.shared-store-refresh',
    displayName: 'Agent tool runs: reload from the shared store and interrupt runs whose lease ended',
    owner: '@corekit/agents',
    run: async () => {
      const count = await service.sweep();
      interrupted += count;
      lastAtUtc = new Date(now()).toISOString();
      return count;
    },
  });
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      if (timer) return;
      timer = setInterval(() => void job.trigger(), intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    lastRefreshedAtUtc: () => lastAtUtc,
    interruptedTotal: () => interrupted,
  };
}
