import type { DependencyHealthEntry, Engine, HealthReport } from '@corekit/abstractions';
import type { AlertSeverity } from '@corekit/notifier-kit';
import type { AlertRuleId } from './alerts-model';
import type { AlertsOptions, SampledRuleOptions } from './alerts-options';
import { AlertTracker, type Sample, type TrackerTransition } from './alert-tracker';

/** Which alert a sample is about. */
export interface AlertSubject {
  readonly alertId: string;
  readonly ruleId: AlertRuleId;
  readonly dependencyId: string | null;
}

export type TransitionSink = (subject: AlertSubject, transition: TrackerTransition) => Promise<void>;

const severityOf = (status: string): AlertSeverity => (status === 'Unhealthy' ? 'unhealthy' : 'degraded');

/**
 * Samples the engine's own facts and keeps one tracker per alert in this replica: every completed dependency
 * check; readiness, liveness, the last lifecycle failure and the packs' attention views on each pass. Reads only
 * what the `Engine` contract exposes; it knows no pack and no dependency by name. Its trackers are this process's
 * view (each replica samples its own checks); what they decide is recorded in the shared incident book.
 */
export class FactObserver {
  private readonly trackers = new Map<string, AlertTracker>();

  constructor(
    private readonly engine: Engine,
    private readonly settings: AlertsOptions,
    private readonly now: () => number,
    private readonly sink: TransitionSink,
    private readonly ownSurfaces: ReadonlySet<string>,
  ) {}

  private async observe(subject: AlertSubject, sample: Sample, rule: SampledRuleOptions): Promise<void> {
    let tracker = this.trackers.get(subject.alertId);
    if (!tracker) this.trackers.set(subject.alertId, (tracker = new AlertTracker()));
    const transition = tracker.observe(sample, this.now(), rule, this.settings.FlapDamping);
    if (transition) await this.sink(subject, transition);
  }

  /** One completed check of a dependency (the `dependency-checked` runtime event). */
  dependencyChecked(entry: DependencyHealthEntry): Promise<void> {
    const rule = this.settings.Dependencies;
    if (!rule.Enabled) return Promise.resolve();
    const failing = entry.status !== 'Healthy';
    const why = entry.error?.message ?? entry.description ?? (entry.timedOut ? 'the check timed out' : null);
    const description = `${entry.displayName} (${entry.kind}, ${entry.required ? 'required' : 'optional'}) is ${entry.status}${why ? `: ${why}` : ''}`;
    return this.observe(
      { alertId: `dependency:${entry.id}`, ruleId: 'dependency', dependencyId: entry.id },
      { failing, severity: severityOf(entry.status), description },
      rule,
    );
  }

  /**
   * Readiness, liveness, lifecycle and attention, sampled once. While a failure-policy window is in effect
   * (`StartupReadinessDelay`, `ShutdownLivenessGracePeriod`, `ManualRestartBackoff`: the engine reports a status
   * on purpose) readiness and liveness are not sampled: the window is the policy, not an outage.
   */
  async samplePass(): Promise<void> {
    const inWindow = this.engine.status().activeWindow !== null;
    if (this.settings.Readiness.Enabled && !inWindow) {
      await this.observeReport('readiness', this.engine.readiness(), this.settings.Readiness);
    }
    if (this.settings.Liveness.Enabled && !inWindow) {
      await this.observeReport('liveness', this.engine.liveness(), this.settings.Liveness);
    }
    if (this.settings.Lifecycle.Enabled) await this.observeLifecycle();
    if (this.settings.Attention.Enabled) await this.observeAttention();
  }

  private observeReport(ruleId: 'readiness' | 'liveness', report: HealthReport, rule: SampledRuleOptions) {
    const reasons = report.reasons.length > 0 ? `: ${report.reasons.join('; ')}` : '';
    return this.observe(
      { alertId: ruleId, ruleId, dependencyId: null },
      {
        failing: report.status !== 'Healthy',
        severity: severityOf(report.status),
        description: `${ruleId} is ${report.status}${reasons}`,
      },
      rule,
    );
  }

  private observeLifecycle() {
    const failure = this.engine.status().lastFailure;
    const recent =
      failure !== null && Date.parse(failure.occurredAtUtc) >= this.now() - this.settings.Lifecycle.Window;
    const description = failure
      ? `${failure.phase} failed${failure.moduleId ? ` in module ${failure.moduleId}` : ''}: ${failure.code} ${failure.message}`
      : 'no lifecycle failure';
    return this.observe(
      { alertId: 'lifecycle', ruleId: 'lifecycle', dependencyId: null },
      { failing: recent, severity: 'unhealthy', description },
      { Enabled: true, FailuresToFire: 1, SuccessesToResolve: 1 },
    );
  }

  /** Every attention view the packs declared, through the contract: operator views and catalog views marked `attention`. */
  private async observeAttention() {
    const ignored = new Set(this.settings.Attention.Ignore);
    const views: Array<{ id: string; title: string; count: () => Promise<number> }> = [];
    for (const view of this.engine.operatorViews()) {
      if (this.ownSurfaces.has(view.id) || ignored.has(view.id)) continue;
      views.push({ id: view.id, title: view.title, count: async () => (await view.rows()).length });
    }
    for (const catalog of this.engine.catalogs()) {
      const definition = catalog.definition;
      if (this.ownSurfaces.has(definition.id)) continue;
      for (const view of definition.views ?? []) {
        const id = `${definition.id}/${view.segment}`;
        if (!view.attention || ignored.has(id)) continue;
        views.push({
          id,
          title: `${definition.displayName}: ${view.description}`,
          count: async () => catalog.entries().filter((entry) => view.select(entry)).length,
        });
      }
    }
    for (const view of views) {
      const rows = await view.count();
      await this.observe(
        { alertId: `attention:${view.id}`, ruleId: 'attention', dependencyId: view.id },
        {
          failing: rows > 0,
          severity: this.settings.Attention.Severity,
          description: `${view.title} (${rows} ${rows === 1 ? 'entry wants' : 'entries want'} an operator)`,
        },
        this.settings.Attention,
      );
    }
  }
}
