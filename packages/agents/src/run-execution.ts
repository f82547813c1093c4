import { keepLeaseRenewed, OperationError, type LeaseRenewal } from '@corekit/abstractions';
import { agentEventIds as ids } from './agent-telemetry';
import { pause, runAttempt } from './attempt-runner';
import { withLease } from './run-lease';
import { resultOf, type AgentToolExecutionResult, type StoredRun } from './run-model';
import { report } from './run-reports';
import type { RunServiceContext } from './run-service';
import { summarizeOutput } from './summaries';
import type { AgentToolExecutor } from './tool-definitions';

/**
 * Executes a run: up to `ExecutionMaxAttempts` attempts, each reported `accepted` then `succeeded`,
 * `retry-scheduled` (a retryable failure with attempts left; the next attempt starts after
 * `ExecutionRetryDelayMilliseconds`) or `failed` (terminal). Every report is a compare-and-set write of the
 * run, so two requests can never execute the same run at once. While in flight the run is owned by this
 * replica under a lease, renewed every `RunLeaseRenewMilliseconds` (a compare-and-set write too, through
 * `keepLeaseRenewed`); a lost renewal (another replica interrupted the run after the lease ended), or renewals
 * failing until the lease ran out (the store unavailable), aborts the attempt and no later report is written.
 */
export async function executeRun(
  context: RunServiceContext,
  executor: AgentToolExecutor,
  args: unknown,
  start: StoredRun,
  startVersion: number,
  signal: AbortSignal,
): Promise<AgentToolExecutionResult> {
  const { options, store, telemetry, now, lease, live } = context;
  const at = () => new Date(now()).toISOString();
  let run = start;
  let version = startVersion;
  let lost = false;
  const leaseGone = new AbortController();
  const attemptSignal = AbortSignal.any([signal, leaseGone.signal]);
  // Reports and renewals are serialized: each compare-and-set needs the version the previous one wrote.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };
  const write = (next: StoredRun) =>
    serial(async () => {
      const owned = withLease(next, lease, now());
      const record = lost ? null : await store.write(owned, version);
      if (!record) {
        throw new OperationError(
          'conflict',
          lost ? 'AGENT_TOOL_RUN_LEASE_LOST' : 'AGENT_TOOL_RUN_IN_PROGRESS',
          lost
            ? `Run "${next.runId}" lost its lease: another replica reported it interrupted`
            : `Run "${next.runId}" was changed by another request`,
        );
      }
      run = owned;
      version = record.version;
    });
  /** One renewal, serialized with the reports: the new lease end, or null when the run's record moved on. */
  const renew = () =>
    serial(async (): Promise<number | null> => {
      const expiresAtMs = Date.parse(run.leaseExpiresAtUtc ?? '') || 0;
      if (lost) return null;
      if (run.phase === 'finished') return expiresAtMs;
      const renewed = withLease(run, lease, now());
      const record = await store.write(renewed, version);
      if (!record) return null;
      run = renewed;
      version = record.version;
      return Date.parse(renewed.leaseExpiresAtUtc ?? '') || 0;
    });
  // On a store no other process shares nobody else judges the lease: it is written, never renewed.
  let renewal: LeaseRenewal | undefined;
  if (context.shared()) {
    renewal = keepLeaseRenewed({
      expiresAtMs: now() + lease.leaseMs,
      renewEveryMs: lease.renewMs,
      now,
      renew,
      onRenewalFailure: (error) =>
        telemetry.log(
          'warn',
          ids.runStoreFailed,
          `Lease renewal of run ${start.runId} failed: ${(error as Error).message}`,
        ),
    });
    renewal.signal.addEventListener('abort', () => {
      lost = true;
      leaseGone.abort(new Error('the run lost its lease'));
    });
  }
  live.add(start.runId);
  try {
    return await attempts();
  } finally {
    await renewal?.stop();
    live.delete(start.runId);
  }

  async function attempts(): Promise<AgentToolExecutionResult> {
    const settings = {
      timeoutMs: options.ExecutionTimeoutMilliseconds,
      maxOutputLength: options.MaxOutputLength,
      summaryMaxLength: options.SummaryMaxLength,
    };
    for (let index = 0; index < options.ExecutionMaxAttempts; index += 1) {
      const attempt = start.attemptBase + index;
      await write(report(run, 'accepted', at(), { phase: 'running', attempt, errorSummary: null }));
      telemetry.report(
        run,
        'accepted',
        ids.runAccepted,
        `Run ${run.runId} of ${run.toolId}: attempt ${attempt} started`,
        'debug',
      );
      const started = performance.now();
      const outcome = await runAttempt(
        executor,
        args,
        {
          toolId: run.toolId,
          runId: run.runId,
          attempt,
          actorId: run.actorId,
          correlationId: run.correlationId,
          metadata: run.metadata,
        },
        settings,
        attemptSignal,
      );
      telemetry.attemptDuration(run.toolId, performance.now() - started, outcome.ok);
      if (outcome.ok) {
        const completedAtUtc = at();
        await write(
          report(run, 'succeeded', completedAtUtc, {
            phase: 'finished',
            completedAtUtc,
            outputSummary: summarizeOutput(outcome.output, options.SummaryMaxLength),
            output: options.EnableExecutionIdempotency ? outcome.output : null,
          }),
        );
        telemetry.report(run, 'succeeded', ids.runSucceeded, `Run ${run.runId} of ${run.toolId} succeeded`);
        return resultOf(run, index + 1, outcome.output);
      }
      const lastAttempt = index + 1 >= options.ExecutionMaxAttempts;
      if (!outcome.retryable || lastAttempt || attemptSignal.aborted) {
        await write(
          report(run, 'failed', at(), {
            phase: 'finished',
            errorSummary: outcome.error,
            outputSummary: null,
          }),
        );
        telemetry.report(
          run,
          'failed',
          outcome.timedOut ? ids.runTimedOut : ids.runFailed,
          `Run ${run.runId} of ${run.toolId} failed terminally after attempt ${attempt} (${outcome.error.code})`,
          'warn',
        );
        return resultOf(run, index + 1, null);
      }
      await write(report(run, 'retry-scheduled', at(), { phase: 'retry-wait', errorSummary: outcome.error }));
      telemetry.report(
        run,
        'retry-scheduled',
        ids.retryScheduled,
        `Run ${run.runId} of ${run.toolId}: attempt ${attempt} failed (${outcome.error.code}), retry scheduled`,
      );
      if (!(await pause(options.ExecutionRetryDelayMilliseconds, attemptSignal))) {
        await write(
          report(run, 'failed', at(), {
            phase: 'finished',
            errorSummary: { code: 'AGENT_TOOL_ABORTED', message: 'aborted while waiting to retry' },
          }),
        );
        telemetry.report(
          run,
          'failed',
          ids.runFailed,
          `Run ${run.runId} of ${run.toolId} aborted while waiting to retry`,
          'warn',
        );
        return resultOf(run, index + 1, null);
      }
    }
    throw new Error('unreachable: ExecutionMaxAttempts is at least 1');
  }
}
