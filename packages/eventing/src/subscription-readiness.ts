import { durabilityOrNone, type StorePosture } from '@corekit/abstractions';
import type { EventSubscriptionDeclaration, Owned } from './eventing-declarations';
import type { EventSubscriptionReadiness } from './eventing-model';
import type { EventingOptions } from './eventing-options';
import type { EventDispatcher } from './outbox-store';
import type { SubscriptionRunner } from './subscription-runner';

/**
 * Where staged messages go: the dispatcher the outbox lane sends with, when that is not this process's
 * subscriptions (a broker dispatcher installed with `useEventDispatcher`, whose `executionOwnership` is not
 * `core-managed`). Null without the outbox lane or with the in-process dispatcher: executors run here.
 */
export function providerDispatcher(
  options: EventingOptions,
  installed: EventDispatcher | undefined,
): EventDispatcher | null {
  if (!options.Outbox.Enabled || !installed || installed.executionOwnership === 'core-managed') return null;
  return installed;
}

/**
 * The execution path of a publication (2.5 `executionPath`): `core-managed/<outbox|direct>/process-local` when
 * this process's executors run it, `<ownership>/outbox/<dispatcher id>` when a broker dispatcher sends it.
 */
export function executionPathOf(options: EventingOptions, dispatcher: EventDispatcher | null): string {
  if (dispatcher) return `${dispatcher.executionOwnership}/outbox/${dispatcher.id}`;
  return `core-managed/${options.Outbox.Enabled ? 'outbox' : 'direct'}/process-local`;
}

/**
 * Retry and idempotency keys (2.5), the same on subscriptions and publishers. Idempotency durability and
 * scope are those of the store the completed-execution ledger lives on (`eventing-idempotency`), from the
 * installed store provider.
 */
export function executionPolicyKeys(options: EventingOptions, ledger: StorePosture): Record<string, unknown> {
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
    idempotencyDurability: idempotent ? durabilityOrNone(ledger) : 'none',
    idempotencyScope: idempotent ? ledger.scope : 'process-local',
    idempotencyStoreKind: idempotent ? ledger.kind : null,
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
 * `eventing-runtime-not-running`, because nothing would execute it. With a broker dispatcher (`dispatcher`, from `providerDispatcher`) staged messages go only to the broker: a
 * core-managed subscription is bound to the dispatch runtime under the dispatcher's ownership
 * (`provider-managed`), and its in-process executor, when one is registered, never runs.
 */
export function subscriptionReadiness(
  subscription: Owned<EventSubscriptionDeclaration>,
  options: EventingOptions,
  runner: SubscriptionRunner,
  running: boolean,
  dispatcher: EventDispatcher | null = null,
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
  } else if (dispatcher) {
    // The broker receives staged messages only while a started engine runs the dispatch job.
    readinessState = running ? 'runtime-bound' : 'declared-only';
    executionOwnership = running ? dispatcher.executionOwnership : 'declared';
    executionMode = 'broker-dispatch';
    if (running) executionRuntimeId = options.Outbox.DispatchRuntimeId;
    reasons.push('dispatch-provider-managed');
    reasons.push(hasExecutor ? 'subscription-executor-bypassed' : 'subscription-executor-not-required');
    if (!running) reasons.push('eventing-runtime-not-running');
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
    readinessState === 'runtime-bound' ? executionPathOf(options, dispatcher) : readinessState;
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
      ...(dispatcher ? { dispatcherId: dispatcher.id } : {}),
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
    scope: 'process-local',
  };
}
