import type { EngineBuilder } from '@corekit/abstractions';
import type { NotifierOutcome } from '@corekit/notifier-kit';
import type { AlertSubject } from './fact-observer';
import type { DeliveryEntry, SilenceRecord } from './alerts-model';
import { utc } from './alerts-model';
import type { TrackerTransition } from './alert-tracker';
import { alertsEventIds } from './alerts-event-ids';

/**
 * What the pack tells the engine: runtime-story entries (kind `alerts`: fired, resolved, blips recorded, silences
 * created and expired, deliveries given up), log records with the pack's event ids, and counters. Never a secret:
 * descriptions come from redacted check results, outcomes are scrubbed by the notifier kit.
 */
export function alertsReporter(builder: EngineBuilder) {
  const transitions = builder.meter.counter(
    'corekit.alerts.transitions',
    'alert transitions, by rule and kind (fire, resolve, blip)',
  );
  const deliveries = builder.meter.counter(
    'corekit.alerts.deliveries',
    'notification delivery attempts, by notifier kind and outcome',
  );
  const log = (
    level: 'info' | 'warn' | 'error',
    eventId: number,
    message: string,
    data?: Record<string, unknown>,
  ) => builder.logger.log({ level, eventId, category: 'alerts', message, ...(data ? { data } : {}) });

  return {
    transition(subject: AlertSubject, transition: TrackerTransition) {
      if (transition.kind === 'pending') return;
      transitions.add(1, { rule: subject.ruleId, kind: transition.kind });
      if (transition.kind === 'blip') {
        const message = `${subject.alertId} failed ${transition.failures} time(s) and recovered before firing: recorded, not notified`;
        builder.story.record({
          kind: 'alerts',
          subjectId: subject.alertId,
          transition: 'blip-recorded',
          message,
          details: { failures: transition.failures },
        });
        log('info', alertsEventIds.blipRecorded, message);
        return;
      }
      if (transition.kind === 'resolve') {
        const message = `${subject.alertId} resolved${transition.flapping ? ' (after the flap hold-down)' : ''}`;
        builder.story.record({
          kind: 'alerts',
          subjectId: subject.alertId,
          transition: 'alert-resolved',
          message,
        });
        log('info', alertsEventIds.alertResolved, message);
        return;
      }
      const message = `${subject.alertId} ${transition.kind === 'fire' ? 'fired' : 'got worse'} (${transition.severity}): ${transition.description}`;
      builder.story.record({
        kind: 'alerts',
        subjectId: subject.alertId,
        transition: transition.kind === 'fire' ? 'alert-fired' : 'alert-escalated',
        message,
        details: { severity: transition.severity, flapping: transition.flapping },
      });
      log('warn', alertsEventIds.alertFired, message);
    },
    staged(entry: DeliveryEntry) {
      log(
        'info',
        alertsEventIds.notificationStaged,
        `Notification ${entry.notificationId} (${entry.status}) staged for ${entry.notifierId}`,
      );
    },
    attempted(entry: DeliveryEntry, outcome: NotifierOutcome) {
      deliveries.add(1, { notifier: entry.notifierKind, outcome: outcome.outcome });
      const what = `Notification ${entry.notificationId} to ${entry.notifierId}, attempt ${entry.attempts}`;
      if (entry.outcome === 'delivered') {
        log(
          'info',
          alertsEventIds.deliveryDelivered,
          `${what}: delivered (${entry.responseCode ?? 'no status'})`,
        );
      } else if (entry.outcome === 'retrying') {
        log(
          'warn',
          alertsEventIds.deliveryRetryScheduled,
          `${what}: ${entry.lastError}; next attempt at ${entry.nextAttemptAtUtc}`,
        );
      } else {
        const message = `${what}: failed for good: ${entry.lastError}`;
        builder.story.record({
          kind: 'alerts',
          subjectId: entry.deliveryId,
          transition: 'delivery-failed',
          message,
        });
        log('error', alertsEventIds.deliveryFailed, message);
      }
    },
    silenceCreated(silence: SilenceRecord) {
      const message = `Silence ${silence.silenceId} created by ${silence.createdBy} until ${utc(silence.endsAtMs)}: ${silence.comment}`;
      builder.story.record({
        kind: 'alerts',
        subjectId: silence.silenceId,
        transition: 'silence-created',
        message,
        details: {
          createdBy: silence.createdBy,
          matchers: silence.matchers,
          endsAtUtc: utc(silence.endsAtMs),
          comment: silence.comment,
        },
      });
      log('info', alertsEventIds.silenceCreated, message);
    },
    silenceExpired(silence: SilenceRecord) {
      const message = `Silence ${silence.silenceId} expired by ${silence.expiredBy}`;
      builder.story.record({
        kind: 'alerts',
        subjectId: silence.silenceId,
        transition: 'silence-expired',
        message,
        details: { expiredBy: silence.expiredBy },
      });
      log('info', alertsEventIds.silenceExpired, message);
    },
    evaluationFailed(what: string, error: unknown) {
      log(
        'error',
        alertsEventIds.evaluationFailed,
        `Alert ${what} failed: ${(error as Error)?.message ?? String(error)}`,
      );
    },
    log,
  };
}
export type AlertsReporter = ReturnType<typeof alertsReporter>;
