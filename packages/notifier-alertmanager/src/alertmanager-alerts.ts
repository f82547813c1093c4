import type { AlertNotification } from '@corekit/notifier-kit';

/** A label value Alertmanager accepts as a name: `[a-zA-Z_][a-zA-Z0-9_]*`. */
const labelName = (text: string) => text.replace(/[^a-zA-Z0-9_]/g, '_').replace(/^([^a-zA-Z_])/, '_$1');

/**
 * The `POST /api/v2/alerts` body of a notification: one postable alert per alert of the incident, with labels
 * `alertname` (`Corekit<Rule>`), `service`, `severity`, `alert_id`, `incident_id` and `dependency` (when there is
 * one) plus the target's extra labels; annotations `summary` and `description`; `startsAt`; `endsAt` once the
 * alert resolved (Alertmanager then resolves it); `generatorURL` the first link.
 */
export function alertmanagerAlerts(
  notification: AlertNotification,
  extraLabels: Readonly<Record<string, string>>,
): Array<Record<string, unknown>> {
  return notification.alerts.map((alert) => ({
    labels: {
      ...extraLabels,
      alertname: `Corekit${alert.ruleId.charAt(0).toUpperCase()}${alert.ruleId.slice(1)}`,
      service: notification.service,
      severity: alert.severity,
      alert_id: labelName(alert.alertId),
      incident_id: notification.incidentId,
      ...(alert.dependencyId ? { dependency: alert.dependencyId } : {}),
    },
    annotations: { summary: notification.title, description: alert.description },
    startsAt: alert.startedAtUtc,
    ...(alert.status === 'resolved' && alert.resolvedAtUtc ? { endsAt: alert.resolvedAtUtc } : {}),
    ...(notification.links[0] ? { generatorURL: notification.links[0].url } : {}),
  }));
}
