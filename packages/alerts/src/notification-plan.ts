import { notificationTitle, type AlertNotification, type AlertSeverity } from '@corekit/notifier-kit';
import type { AlertState, IncidentRecord, SilenceRecord } from './alerts-model';
import { utc, utcOrNull } from './alerts-model';
import { silencedBy } from './silences';

const end = (alert: AlertState) => alert.resolvedAtUtc ?? '\uffff';

/**
 * A readiness or liveness alert is caused by a dependency alert of the same incident that fired while it did (the
 * two overlap in time, whichever was sampled first): it is inhibited, in its firing and in its resolution, so the
 * notifications speak of the cause alone.
 */
export function isInhibited(alert: AlertState, incident: IncidentRecord): boolean {
  if (alert.ruleId !== 'readiness' && alert.ruleId !== 'liveness') return false;
  return Object.values(incident.alerts).some(
    (other) =>
      other.ruleId === 'dependency' && other.startedAtUtc <= end(alert) && alert.startedAtUtc <= end(other),
  );
}

/** The alerts a notification of `incident` shows at `now`: neither silenced nor inhibited. */
export function visibleAlerts(
  incident: IncidentRecord,
  silences: readonly SilenceRecord[],
  now: number,
): AlertState[] {
  return Object.values(incident.alerts)
    .filter((alert) => !isInhibited(alert, incident) && silencedBy(silences, alert, now) === null)
    .sort((a, b) => a.startedAtUtc.localeCompare(b.startedAtUtc) || a.alertId.localeCompare(b.alertId));
}

/** What a notification showed, to know whether the next one would say anything new. */
export function fingerprintOf(alerts: readonly AlertState[]): string {
  return alerts.map((alert) => `${alert.alertId}|${alert.status}|${alert.severity}`).join(';');
}

const worst = (alerts: readonly AlertState[]): AlertSeverity =>
  alerts.some((alert) => alert.severity === 'unhealthy') ? 'unhealthy' : 'degraded';

/**
 * The notification due for `incident` at `now`, or null when there is nothing new to say: still inside the group
 * window, nothing visible (every alert silenced or inhibited), the same visible alerts as last time, or a
 * resolution of an incident nobody was told about.
 */
export function dueNotification(
  incident: IncidentRecord,
  silences: readonly SilenceRecord[],
  now: number,
  links: (incidentId: string) => AlertNotification['links'],
): AlertNotification | null {
  if (now < incident.groupUntilMs) return null;
  const visible = visibleAlerts(incident, silences, now);
  if (visible.length === 0) return null;
  const fingerprint = fingerprintOf(visible);
  if (fingerprint === incident.notifiedFingerprint) return null;
  const firing = visible.filter((alert) => alert.status === 'firing');
  const status = firing.length > 0 ? 'firing' : 'resolved';
  if (status === 'resolved' && incident.notifiedStatus !== 'firing') return null;
  const revision = incident.revision + 1;
  const severity = worst(firing.length > 0 ? firing : visible);
  const alerts = visible.map((alert) => ({
    alertId: alert.alertId,
    ruleId: alert.ruleId,
    dependencyId: alert.dependencyId,
    severity: alert.severity,
    status: alert.status,
    description: alert.description,
    startedAtUtc: alert.startedAtUtc,
    resolvedAtUtc: alert.resolvedAtUtc,
  }));
  const base = { status, service: incident.service, severity, alerts } as const;
  return {
    notificationId: `${incident.incidentId}.r${revision}`,
    incidentId: incident.incidentId,
    revision,
    ...base,
    title: notificationTitle(base),
    startedAtUtc: utc(incident.openedAtMs),
    resolvedAtUtc: status === 'resolved' ? utcOrNull(incident.resolvedAtMs ?? now) : null,
    links: links(incident.incidentId),
  };
}
