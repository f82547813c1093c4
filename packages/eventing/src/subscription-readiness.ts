import type { EventSubscriptionDeclaration, Owned } from './eventing-declarations';
import type { EventSubscriptionReadiness } from './eventing-model';
import type { EventingOptions } from './eventing-options';
import type { SubscriptionRunner } from './subscription-runner';

/** Retry and idempotency keys (2.5), the same on subscriptions and publishers. */
export function executionPolicyKeys(options: EventingOptions): Record<string, unknown> {
  const bounded = options.InProcessSubscriptionMaxAttempts > 1;
  const idempotent = options.EnableInProcessSubscriptionIdempotency;
  return {
    retryPolicy: bounded ? 'bounded-in-process' : 'none',
    retryMaxAttempts: options.InProcessSubscriptionMaxAttempts,
    retryDelayMilliseconds: bounded ? options.InProcessSubscriptionRetryDelayMilliseconds : 0,
    retryDurability: 'none',
    retryScope: 'process-local',
    idempotencyPolicy: idempotent ? 'completed-publication' : 'none',
    idempotencyKey: idempotent ? 'subscription-publication' : null,
    idempotencyRetentionMinutes: idempotent ? options.InProcessSubscriptionIdempotencyRetentionMinutes : null,
    idempotencyDurability: 'none',
    idempotencyScope: 'process-local',
    publicationRuntimeState: 'available',
    handoff: options.Outbox.Enabled ? 'outbox' : 'direct',
    deliveryCompletion: options.Outbox.Enabled ? 'pending-dispatch' : 'in-request',
  };
}

/**
 * Readiness of one subscription (3.2). A declared subscription is not execution ready until a managed
 * binding, a hosted execution link or a runtime report exists; reasons are ordered, machine-readable. The
 * in-process binding exists only while a started engine runs the pack (`running`): before the start, while
 * stopping, stopped or after a failed start the subscription is `declared-only` with reason
 * `eventing-runtime-not-running`, because nothing would execute it.
 */
export function subscriptionReadiness(
  subscription: Owned<EventSubscriptionDeclaration>,
  options: EventingOptions,
  runner: SubscriptionRunner,
  running: boolean,
): EventSubscriptionReadiness {
  const record = runner.records.get(subscription.id);
  const hasExecutor = runner.hasExecutor(subscription.id);
  const enabled = options.EnableInProcessSubscriptionExecution;
  let readinessState: EventSubscriptionReadiness['readinessState'];
  let executionOwnership: string;
  let executionMode: string;
  let executionRuntimeId: string | null = null;
  const reasons: string[] = [];
  if (subscription.executionOwnership === 'hosted-execution') {
    readinessState = 'hosted-execution-linked';
    executionOwnership = 'host-managed';
    executionMode = 'hosted-execution';
    executionRuntimeId = subscription.hostedExecutionId ?? null;
    reasons.push('hosted-execution-linked');
  } else if (subscription.executionOwnership === 'application-managed') {
    readinessState = 'application-managed-state';
    executionOwnership = 'application-managed';
    executionMode = 'application-managed';
    reasons.push('application-managed');
  } else {
    reasons.push(enabled ? 'in-process-execution-enabled' : 'in-process-execution-disabled');
    reasons.push(hasExecutor ? 'subscription-executor-registered' : 'subscription-executor-missing');
    if (!running) reasons.push('eventing-runtime-not-running');
    readinessState = enabled && hasExecutor && running ? 'runtime-bound' : 'declared-only';
    executionOwnership = readinessState === 'runtime-bound' ? 'core-managed' : 'declared';
    executionMode = options.Outbox.Enabled ? 'outbox-dispatch' : 'direct';
    if (readinessState === 'runtime-bound' && options.Outbox.Enabled)
      executionRuntimeId = options.Outbox.DispatchRuntimeId;
  }
  const executionPath =
    readinessState === 'runtime-bound'
      ? `core-managed/${options.Outbox.Enabled ? 'outbox' : 'direct'}/process-local`
      : readinessState;
  return {
    subscriptionId: subscription.id,
    readinessState,
    executionOwnership,
    executionMode,
    executionRuntimeId,
    reasons,
    metadata: {
      sourceModuleId: subscription.sourceModuleId,
      channelId: subscription.channelId,
      executionPath,
      lastAttempt: record?.lastAttempt ?? 0,
      retryScheduledCount: record?.retryScheduledCount ?? 0,
      'reported.executionCount': record?.executionCount ?? 0,
      'reported.succeededCount': record?.succeededCount ?? 0,
      'reported.failedCount': record?.failedCount ?? 0,
      'reported.skippedCount': record?.skippedCount ?? 0,
      'reported.interruptedCount': record?.interruptedCount ?? 0,
      'reported.lastOutcome': record?.lastOutcome ?? null,
      'reported.lastError': record?.lastError ?? null,
      ...(record?.publicationMetadata ?? {}),
    },
  };
}
