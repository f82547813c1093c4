import { performance } from 'node:perf_hooks';
import type { DependencyHealthEntry, HealthReport, Logger, StatusDocument } from '@corekit/abstractions';
import { HealthChangeMonitor } from '../health-change-monitor';
import { isoAt, type Clock } from '../clock';
import type { FailurePolicy } from '../engine-options';
import { livenessVerdict, readinessVerdict, toReport, type LifecycleFacts } from '../health-aggregator';
import type { RuntimeEventHub } from '../pack/runtime-event-hub';
import type { LifecycleState } from './lifecycle-state';

/** Liveness, readiness and status from the lifecycle facts and the cached dependency results. */
export class HealthReporting {
  private readonly monitor: HealthChangeMonitor;

  constructor(
    private readonly lifecycle: LifecycleState,
    private readonly clock: Clock,
    private readonly policy: FailurePolicy,
    private readonly dependencies: () => readonly DependencyHealthEntry[],
    events: RuntimeEventHub,
    logger: Logger,
  ) {
    this.monitor = new HealthChangeMonitor({
      liveness: () => this.liveness(),
      readiness: () => this.readiness(),
      logger,
      clock,
      emit: (event) => events.emit(event),
    });
    this.monitor.check();
  }

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

  /**
   * Logs (3005) and publishes `health-changed` for every liveness or readiness change since the last call;
   * call after each runtime transition and dependency change.
   */
  publishChanges(): void {
    this.monitor.check();
  }

  /** While started, also notice changes that time alone causes (a window ending, a result going stale). */
  watch(started: boolean): void {
    if (started) this.monitor.watch(1000);
    else this.monitor.unwatch();
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
