import {
  formatDuration,
  worstStatus,
  type DependencyHealthEntry,
  type FailureContext,
  type HealthReport,
  type HealthStatus,
  type LifecycleWindow,
  type RuntimeState,
} from '@corekit/abstractions';
import { isoAt } from './clock';
import type { FailurePolicy } from './engine-options';

/** The lifecycle facts health is computed from, read at the moment of the request. */
export interface LifecycleFacts {
  readonly state: RuntimeState;
  readonly now: number;
  readonly startedAt: number | null;
  readonly shutdownStartedAt: number | null;
  readonly failedAt: number | null;
  readonly restartCount: number;
  readonly lastFailure: FailureContext | null;
  readonly policy: FailurePolicy;
  readonly dependencies: readonly DependencyHealthEntry[];
}

interface Verdict {
  status: HealthStatus;
  reasons: string[];
  window?: { name: LifecycleWindow; endsAt: number };
}

/**
 * Liveness (spec 3.1): alive through startup and shutdown; never Unhealthy because of a dependency, and
 * never Degraded by one that has not been checked yet (it has reported nothing; during startup its first run
 * is still under way).
 */
export function livenessVerdict(facts: LifecycleFacts): Verdict {
  const { state, now, policy } = facts;
  if (state === 'Failed') return { status: 'Unhealthy', reasons: ['the runtime is Failed'] };
  if (state === 'Stopped') return { status: 'Unhealthy', reasons: ['the runtime is Stopped'] };
  if (state === 'Stopping' && facts.shutdownStartedAt !== null) {
    const endsAt = facts.shutdownStartedAt + policy.ShutdownLivenessGracePeriod;
    if (now >= endsAt) {
      return { status: 'Unhealthy', reasons: ['the shutdown drain outlasted ShutdownLivenessGracePeriod'] };
    }
    return {
      ...dependencyFold(facts.dependencies, 'liveness'),
      window: { name: 'ShutdownLivenessGracePeriod', endsAt },
    };
  }
  return dependencyFold(facts.dependencies, 'liveness');
}

/** Readiness (spec 3.1): only a Started runtime past its warm-up window, folded with dependencies. */
export function readinessVerdict(facts: LifecycleFacts): Verdict {
  const { state, now, policy } = facts;
  if (state !== 'Started') {
    const verdict: Verdict = { status: 'Unhealthy', reasons: [`the runtime is ${state}, not Started`] };
    if (state === 'Stopping' && facts.shutdownStartedAt !== null) {
      verdict.window = {
        name: 'ShutdownLivenessGracePeriod',
        endsAt: facts.shutdownStartedAt + policy.ShutdownLivenessGracePeriod,
      };
    }
    return verdict;
  }
  if (facts.startedAt !== null && policy.StartupReadinessDelay > 0) {
    const endsAt = facts.startedAt + policy.StartupReadinessDelay;
    if (now < endsAt) {
      return {
        status: 'Unhealthy',
        reasons: ['the StartupReadinessDelay warm-up window has not ended'],
        window: { name: 'StartupReadinessDelay', endsAt },
      };
    }
  }
  return dependencyFold(facts.dependencies, 'readiness');
}

function dependencyFold(
  dependencies: readonly DependencyHealthEntry[],
  probe: 'liveness' | 'readiness',
): Verdict {
  let status: HealthStatus = 'Healthy';
  const reasons: string[] = [];
  for (const dependency of dependencies) {
    if (dependency.status === 'Healthy') continue;
    // Readiness still counts a dependency not checked yet: it must not say Healthy before knowing.
    if (probe === 'liveness' && dependency.checkedAtUtc === null) continue;
    const label = `${dependency.required ? 'required' : 'optional'} dependency ${dependency.id} is ${dependency.status}`;
    reasons.push(label);
    const pullsToUnhealthy =
      probe === 'readiness' && dependency.required && dependency.status === 'Unhealthy';
    status = worstStatus(status, pullsToUnhealthy ? 'Unhealthy' : 'Degraded');
  }
  return { status, reasons };
}

/** Builds the 2.1 report from a verdict. */
export function toReport(
  verdict: Verdict,
  facts: LifecycleFacts,
  startedMeasuring: number,
  elapsedMs: number,
): HealthReport {
  const report: HealthReport = {
    status: verdict.status,
    duration: formatDuration(elapsedMs),
    durationMs: elapsedMs,
    checkedAtUtc: isoAt(startedMeasuring),
    runtime: { state: facts.state, restartCount: facts.restartCount, lastFailure: facts.lastFailure },
    reasons: verdict.reasons,
    dependencies: [...facts.dependencies],
  };
  let window = verdict.window;
  if (facts.state === 'Failed' && facts.failedAt !== null && facts.lastFailure?.restartable) {
    const availableAt = facts.failedAt + facts.policy.ManualRestartBackoff;
    report.restartAvailableAtUtc = isoAt(availableAt);
    if (!window && facts.now < availableAt) window = { name: 'ManualRestartBackoff', endsAt: availableAt };
  }
  if (window) {
    report.activeWindow = window.name;
    report.activeWindowEndsAtUtc = isoAt(window.endsAt);
  }
  return report;
}
