import type { Logger } from '@corekit/abstractions';
import type { DeliveryObservationInput, InvitationDeliveryStatusService } from '@corekit/tenant-governance';
import type { SharedCallbackOptions } from './callback-options';
import type { CallbackOutcomeEntry, CallbackResult } from './callback-response';

/** One provider event after translation: an observation to reconcile, or a skip with its reason. */
export type TranslatedEvent =
  | {
      readonly kind: 'observation';
      readonly observation: DeliveryObservationInput & { providerEventId: string };
    }
  | {
      readonly kind: 'skipped';
      readonly reason: 'engagement' | 'unmapped' | 'no-context' | 'invalid-event';
      readonly providerEventId?: string | null;
    };

export interface ReconcileOptions {
  readonly providerKey: string;
  readonly status: InvitationDeliveryStatusService;
  readonly options: SharedCallbackOptions;
  /** Check the observation store for the normalized id before reconciling (event-id idempotency). */
  readonly idempotency: boolean;
  readonly logger: Logger;
  /** Event id logged for each duplicate skipped (4565, 4581...) and its category. */
  readonly duplicateEventId: number;
  readonly category: string;
}

/**
 * Reconciles translated events: duplicate ids inside the batch and (with idempotency) ids already stored
 * are skipped before reconciliation and counted in duplicateEvents; the rest go to `status.submit` in one
 * call when RecordStatus is on. Answers the callback result (kind `events`).
 */
export async function reconcileTranslatedEvents(
  events: readonly TranslatedEvent[],
  settings: ReconcileOptions,
): Promise<CallbackResult> {
  const outcomes: CallbackOutcomeEntry[] = [];
  const pending: Array<{ index: number; observationId: string; observation: DeliveryObservationInput }> = [];
  const seen = new Set<string>();
  let duplicates = 0;
  let skipped = 0;
  for (const [index, event] of events.entries()) {
    if (event.kind === 'skipped') {
      skipped += 1;
      const observationId = event.providerEventId ? `${settings.providerKey}:${event.providerEventId}` : null;
      outcomes.push({ index, observationId, outcome: `skipped-${event.reason}` });
      continue;
    }
    const observationId = `${settings.providerKey}:${event.observation.providerEventId}`;
    const status = event.observation.status;
    const duplicate =
      seen.has(observationId) ||
      (settings.idempotency && (await settings.status.hasObservation(observationId)));
    seen.add(observationId);
    if (duplicate) {
      duplicates += 1;
      outcomes.push({ index, observationId, outcome: 'duplicate', status });
      settings.logger.log({
        level: 'info',
        eventId: settings.duplicateEventId,
        category: settings.category,
        message: `A ${settings.providerKey} callback event was a duplicate and was skipped before reconciliation`,
        providerKey: settings.providerKey,
      });
      continue;
    }
    pending.push({ index, observationId, observation: event.observation });
    outcomes.push({ index, observationId, outcome: 'translated-not-recorded', status });
  }
  let accepted = 0;
  let rejected = 0;
  if (settings.options.RecordStatus && pending.length > 0) {
    const submitted = await settings.status.submit(
      pending.map((item) => item.observation),
      { requireProviderMessageMatch: settings.options.RequireProviderMessageMatch },
    );
    accepted = submitted.accepted;
    rejected = submitted.rejected;
    duplicates += submitted.duplicateEvents;
    for (const result of submitted.outcomes) {
      const item = pending[result.index]!;
      // outcomes holds one entry per event in order, so the event index is the position.
      outcomes[item.index] = {
        ...outcomes[item.index]!,
        outcome: result.outcome,
        ...(result.reconciledStatus !== undefined ? { reconciledStatus: result.reconciledStatus } : {}),
      };
    }
  }
  return {
    provider: settings.providerKey,
    kind: 'events',
    received: events.length,
    translated: events.length - skipped,
    skipped,
    recorded: settings.options.RecordStatus,
    accepted,
    rejected,
    duplicateEvents: duplicates,
    outcomes,
  };
}
