import { performance } from 'node:perf_hooks';
import type { DependencyHealthEntry, HealthReport, HealthStatus, StatusDocument } from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';
import type { FailurePolicy } from '../engine-options';
import { livenessVerdict, readinessVerdict, toReport, type LifecycleFacts } from '../health-aggregator';
import type { RuntimeEventHub } from '../pack/runtime-event-hub';
import type { LifecycleState } from './lifecycle-state';

/** Liveness, readiness and status from the lifecycle facts and the cached dependency results. */
export class HealthReporting {
  private lastPublished: { liveness: HealthStatus | null; readiness: HealthStatus | null } = {
    liveness: null,
    readiness: null,
  };

  constructor(
    private readonly lifecycle: LifecycleState,
    private readonly clock: Clock,
    private readonly policy: FailurePolicy,
    private readonly dependencies: () => readonly DependencyHealthEntry[],
    private readonly events: RuntimeEventHub,
  ) {}

  liveness(): HealthReport {
    return this.measure((facts) => livenessVerdict(facts));
  }

  readiness(): HealthReport {
    return this.measure((facts) => readinessVerdict(facts));
  }

  health(): HealthReport {
    return this.measure((facts) => {
      const live = livenessVerdict(facts);
      const ready = readinessVerdict(facts);
      const worst = ready.status === 'Unhealthy' || live.status === 'Healthy' ? ready : live;
      return {
        ...worst,
        reasons: [...new Set([...live.reasons, ...ready.reasons])],
        window: ready.window ?? live.window,
      };
    });
  }

  status(): StatusDocument {
    const readiness = this.readiness();
    const liveness = this.liveness();
    const { state, startedAt, restartCount, lastFailure } = this.lifecycle;
    return {
      state,
      liveness: liveness.status,
      readiness: readiness.status,
      startedAtUtc: startedAt === null ? null : isoAt(startedAt),
      restartCount,
      lastFailure,
      restartAvailableAtUtc: readiness.restartAvailableAtUtc ?? null,
      activeWindow: readiness.activeWindow ?? liveness.activeWindow ?? null,
      activeWindowEndsAtUtc: readiness.activeWindowEndsAtUtc ?? liveness.activeWindowEndsAtUtc ?? null,
    };
  }

  /** Sets the baseline when the first listener subscribes: the first change after it is published. */
  baseline(): void {
    this.lastPublished = { liveness: this.liveness().status, readiness: this.readiness().status };
  }

  /** Publishes `health-changed` events for liveness and readiness changes since the last call. */
  publishChanges(): void {
    if (this.events.listenerCount === 0) {
      this.lastPublished = { liveness: null, readiness: null };
      return;
    }
    for (const probe of ['liveness', 'readiness'] as const) {
      const status = (probe === 'liveness' ? this.liveness() : this.readiness()).status;
      const previous = this.lastPublished[probe];
      if (previous !== null && previous !== status) {
        this.events.emit({ type: 'health-changed', probe, status, previous, atUtc: isoAt(this.clock.now()) });
      }
      this.lastPublished[probe] = status;
    }
  }

  private measure(verdictOf: (facts: LifecycleFacts) => Parameters<typeof toReport>[0]): HealthReport {
    const started = performance.now();
    const facts = this.facts();
    const verdict = verdictOf(facts);
    return toReport(verdict, facts, facts.now, Math.round((performance.now() - started) * 1000) / 1000);
  }

  private facts(): LifecycleFacts {
    const lifecycle = this.lifecycle;
    return {
      state: lifecycle.state,
      now: this.clock.now(),
      startedAt: lifecycle.startedAt,
      shutdownStartedAt: lifecycle.shutdownStartedAt,
      failedAt: lifecycle.state === 'Failed' ? lifecycle.failedAt : null,
      restartCount: lifecycle.restartCount,
      lastFailure: lifecycle.lastFailure,
      policy: this.policy,
      dependencies: this.dependencies(),
    };
  }
}
