import type { AlertSeverity } from '@corekit/notifier-kit';
import type { SampledRuleOptions } from './alerts-options';

/** One sample of a fact: bad or good, and when bad how bad and why. */
export interface Sample {
  readonly failing: boolean;
  readonly severity: AlertSeverity;
  readonly description: string;
}

/** What a sample changed: the alert fired, got worse, resolved; a bad run ended before firing (a blip). */
export type TrackerTransition =
  | {
      readonly kind: 'fire' | 'update';
      readonly severity: AlertSeverity;
      readonly description: string;
      readonly flapping: boolean;
    }
  | { readonly kind: 'resolve'; readonly flapping: boolean }
  | { readonly kind: 'blip'; readonly failures: number }
  | { readonly kind: 'pending'; readonly failures: number };

export interface FlapDamping {
  readonly Window: number;
  readonly MaxFirings: number;
  readonly HoldDown: number;
}

const rank = (severity: AlertSeverity) => (severity === 'unhealthy' ? 2 : 1);

/**
 * The state of one alert in this replica: consecutive bad and good samples, whether it fires, and when it fired
 * lately (flap damping). Pure: every decision comes from the samples and the `now` given.
 */
export class AlertTracker {
  private failures = 0;
  private successes = 0;
  private firstFailureAtMs: number | null = null;
  private lastFailureAtMs: number | null = null;
  private firing = false;
  private severity: AlertSeverity = 'degraded';
  private firings: number[] = [];

  get isFiring(): boolean {
    return this.firing;
  }

  observe(
    sample: Sample,
    now: number,
    rule: SampledRuleOptions,
    flap: FlapDamping,
  ): TrackerTransition | null {
    return sample.failing ? this.bad(sample, now, rule, flap) : this.good(now, rule, flap);
  }

  private flapping(now: number, flap: FlapDamping): boolean {
    this.firings = this.firings.filter((at) => now - at < flap.Window);
    return this.firings.length >= flap.MaxFirings;
  }

  private bad(
    sample: Sample,
    now: number,
    rule: SampledRuleOptions,
    flap: FlapDamping,
  ): TrackerTransition | null {
    this.failures += 1;
    this.successes = 0;
    this.firstFailureAtMs ??= now;
    this.lastFailureAtMs = now;
    if (this.firing) {
      if (rank(sample.severity) <= rank(this.severity)) return null;
      this.severity = sample.severity;
      return {
        kind: 'update',
        severity: sample.severity,
        description: sample.description,
        flapping: this.flapping(now, flap),
      };
    }
    const longEnough = rule.FireAfter !== undefined && now - this.firstFailureAtMs >= rule.FireAfter;
    if (this.failures < rule.FailuresToFire && !longEnough)
      return { kind: 'pending', failures: this.failures };
    this.firing = true;
    this.severity = sample.severity;
    this.firings.push(now);
    return {
      kind: 'fire',
      severity: sample.severity,
      description: sample.description,
      flapping: this.flapping(now, flap),
    };
  }

  private good(now: number, rule: SampledRuleOptions, flap: FlapDamping): TrackerTransition | null {
    const failures = this.failures;
    this.failures = 0;
    this.firstFailureAtMs = null;
    if (!this.firing) return failures > 0 ? { kind: 'blip', failures } : null;
    this.successes += 1;
    if (this.successes < rule.SuccessesToResolve) return null;
    const flapping = this.flapping(now, flap);
    if (flapping && this.lastFailureAtMs !== null && now - this.lastFailureAtMs < flap.HoldDown) return null;
    this.firing = false;
    this.successes = 0;
    this.severity = 'degraded';
    return { kind: 'resolve', flapping };
  }
}
