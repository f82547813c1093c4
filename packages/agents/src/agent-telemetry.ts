import {
  packDiagnostics,
  type EngineBuilder,
  type LogLevel,
  type PackDiagnostics,
} from '@corekit/abstractions';
import type { StoredRun } from './run-model';

/** The agents pack's event ids (3240-3259). */
export const agentEventIds = {
  runAccepted: 3240,
  runSucceeded: 3241,
  retryScheduled: 3242,
  runFailed: 3243,
  duplicateSuppressed: 3244,
  approvalRequired: 3245,
  runApproved: 3246,
  runDenied: 3247,
  runTimedOut: 3248,
  runInterrupted: 3249,
  runsRestored: 3250,
  toolAwaitingExecutor: 3251,
  runStoreFailed: 3252,
} as const;

/** The event-id catalog entry `addAgents` registers. */
export const agentEventIdCatalog = {
  component: 'Agents pack (@corekit/agents)',
  ranges: [[3240, 3259]] as const,
  names: {
    3240: 'agent-tool-run-accepted',
    3241: 'agent-tool-run-succeeded',
    3242: 'agent-tool-run-retry-scheduled',
    3243: 'agent-tool-run-failed',
    3244: 'agent-tool-run-duplicate-suppressed',
    3245: 'agent-tool-run-approval-required',
    3246: 'agent-tool-run-approved',
    3247: 'agent-tool-run-denied',
    3248: 'agent-tool-run-timed-out',
    3249: 'agent-tool-run-interrupted',
    3250: 'agent-tool-runs-restored',
    3251: 'agent-tool-awaiting-executor',
    3252: 'agent-tool-run-store-failed',
  },
};

/** Reports that also enter the runtime story (the rest are logs, events and counters only). */
const storyTransitions: readonly string[] = [
  'approval-required',
  'approved',
  'denied',
  'failed',
  'interrupted',
];

/**
 * Logs, story entries, runtime events and counters of runs. Nothing written here carries arguments, the
 * output, the actor id or metadata values: only tool and run ids, outcome, attempt and error code.
 */
export class AgentTelemetry {
  private readonly runs;
  private readonly duration;
  /** A log record of category `agents`. */
  readonly log: PackDiagnostics['log'];
  /** A story entry of kind `agents`. */
  readonly story: PackDiagnostics['story'];
  private readonly transition: PackDiagnostics['transition'];

  constructor(builder: EngineBuilder) {
    ({ log: this.log, story: this.story, transition: this.transition } = packDiagnostics(builder, 'agents'));
    this.runs = builder.meter.counter(
      'corekit.agents.tool.runs',
      'agent tool run reports by tool and outcome',
    );
    this.duration = builder.meter.histogram(
      'corekit.agents.tool.attempt.duration',
      'agent tool attempt duration',
      'ms',
    );
  }

  /** One run report: `transition` is the outcome or `approved` / `interrupted`. */
  report(
    run: StoredRun,
    transition: string,
    eventId: number,
    message: string,
    level: LogLevel = 'info',
  ): void {
    const facts = {
      toolId: run.toolId,
      runId: run.runId,
      outcome: run.latestOutcome,
      attempt: run.attempt,
      ...(run.errorSummary ? { errorCode: run.errorSummary.code } : {}),
    };
    this.log(level, eventId, message, facts);
    this.runs.add(1, { tool: run.toolId, outcome: transition });
    this.transition(
      'agents.tool-run',
      run.runId,
      transition,
      message,
      facts,
      storyTransitions.includes(transition),
    );
  }

  attemptDuration(toolId: string, milliseconds: number, ok: boolean): void {
    this.duration.record(milliseconds, { tool: toolId, ok });
  }
}
