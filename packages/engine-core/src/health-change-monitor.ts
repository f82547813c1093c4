import {
  observabilityEventIds,
  type HealthStatus,
  type Logger,
  type RuntimeEvent,
} from '@corekit/abstractions';
import { isoAt, type Clock } from './clock';

/** What the monitor reads for a probe: its status, and the reasons when there are some (a HealthReport fits). */
export interface ProbeReading {
  readonly status: HealthStatus;
  readonly reasons?: readonly string[];
}

export type HealthChangedEvent = Extract<RuntimeEvent, { type: 'health-changed' }>;

export interface HealthChangeMonitorOptions {
  readonly liveness: () => ProbeReading;
  readonly readiness: () => ProbeReading;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Receives every change; called whether or not anyone listens downstream. */
  readonly emit: (event: HealthChangedEvent) => void;
}

const probes = ['liveness', 'readiness'] as const;

/**
 * Detects changes of liveness and readiness and reports each one twice: a 3005 (healthStatusChanged) log
 * record and a `health-changed` runtime event. It only sees what it is shown: a change is detected when
 * `check()` runs (call it after every runtime transition and dependency status change), or on the timer of
 * `watch()` for changes that time alone causes (a warm-up or drain window ending, a result going stale).
 * The first reading is the baseline and is not reported; a change that reverts between two checks is missed.
 */
export class HealthChangeMonitor {
  private last: Record<(typeof probes)[number], HealthStatus | null> = { liveness: null, readiness: null };
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: HealthChangeMonitorOptions) {}

  /** The statuses last seen (null before the first check). */
  get current(): { readonly liveness: HealthStatus | null; readonly readiness: HealthStatus | null } {
    return { ...this.last };
  }

  /** Reads both probes; logs and emits each one whose status differs from the last reading. */
  check(): void {
    for (const probe of probes) {
      const reading = this.options[probe]();
      const previous = this.last[probe];
      this.last[probe] = reading.status;
      if (previous === null || previous === reading.status) continue;
      const atUtc = isoAt(this.options.clock.now());
      const reasons = reading.reasons ?? [];
      this.options.logger.log({
        level: reading.status === 'Healthy' ? 'info' : 'warn',
        eventId: observabilityEventIds.healthStatusChanged,
        category: 'health',
        message: `${probe === 'liveness' ? 'Liveness' : 'Readiness'} is ${reading.status} (was ${previous})${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}`,
        probe,
        status: reading.status,
        previousStatus: previous,
        reasons: [...reasons],
      });
      this.options.emit({ type: 'health-changed', probe, status: reading.status, previous, atUtc });
    }
  }

  /** Also checks every `intervalMs` on an unref'd timer (never keeps the process alive) until unwatch(). */
  watch(intervalMs: number): void {
    this.unwatch();
    this.timer = setInterval(() => this.check(), intervalMs);
    this.timer.unref();
  }

  unwatch(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
