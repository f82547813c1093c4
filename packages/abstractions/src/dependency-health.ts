import type { DependencyCheckResult } from './health';

/**
 * A dependency-health contributor (the spec's IDependencyHealthContributor). The engine's scheduler runs
 * `check` once at startup and then every `refreshIntervalSeconds`, never two runs at once, and enforces
 * `timeoutSeconds` itself: when the timeout passes the signal is aborted and the run is reported as timed
 * out even if `check` ignores the signal. Requests only ever read the cached result.
 */
export interface DependencyHealthContributor {
  /** Stable id, unique across all contributors of the engine. */
  readonly id: string;
  readonly displayName: string;
  /** A required dependency's failure makes readiness Unhealthy; an optional one's only Degraded. */
  readonly required: boolean;
  /** The probe kind, the technology's own name as in the configuration section (`PostgreSql`). */
  readonly kind: string;
  /** Background refresh interval in seconds (default 30). */
  readonly refreshIntervalSeconds?: number;
  /** Timeout of one run in seconds (default 5). */
  readonly timeoutSeconds?: number;
  /** A safe, secret-free label of the upstream (`host:port/db`), kept as `data.target` even on a timeout. */
  readonly target?: string;
  /** Event ids logged on status changes: [became healthy, became degraded or unhealthy] (spec 6). */
  readonly eventIds?: { readonly healthy: number; readonly unhealthy: number };
  /**
   * Runs one check. Must release every connection it opened before settling, including when `signal`
   * aborts. Throwing is reported as Unhealthy with the error's code and message.
   */
  check(signal: AbortSignal): Promise<DependencyCheckResult>;
}
