import { z } from 'zod';

/**
 * How bad an alert is. `degraded`: something works worse than it should (a Degraded dependency, an optional one
 * down, a pack asking for attention); `unhealthy`: something is down (an Unhealthy required dependency, readiness
 * 503). They are never merged: a notifier maps each to its own level (PagerDuty `warning` / `critical`...).
 */
export const alertSeveritySchema = z.enum(['degraded', 'unhealthy']);
export type AlertSeverity = z.output<typeof alertSeveritySchema>;

/** True when `severity` is at least `minimum` (`unhealthy` is above `degraded`). */
export function severityAtLeast(severity: AlertSeverity, minimum: AlertSeverity): boolean {
  return minimum === 'degraded' || severity === 'unhealthy';
}

/** One alert of an incident, as notifiers receive it. */
export const notificationAlertSchema = z.object({
  /** Stable id of the alert (`dependency:inventory-api`): the rule and the subject it watches. */
  alertId: z.string(),
  /** The rule that fired: `dependency`, `readiness`, `liveness`, `lifecycle`, `attention`. */
  ruleId: z.string(),
  /** The dependency id for a dependency rule, the operator view id for an attention rule; null otherwise. */
  dependencyId: z.string().nullable(),
  severity: alertSeveritySchema,
  status: z.enum(['firing', 'resolved']),
  /** What failed, in plain words, with the facts the rule saw (never a secret: results are redacted). */
  description: z.string(),
  startedAtUtc: z.string(),
  resolvedAtUtc: z.string().nullable(),
});
export type NotificationAlert = z.output<typeof notificationAlertSchema>;

/** A link a notifier shows beside the notification (the console, the incident's JSON). */
export const notificationLinkSchema = z.object({ label: z.string(), url: z.string() });
export type NotificationLink = z.output<typeof notificationLinkSchema>;

/**
 * What every notifier sends: one incident of one service at one revision. The same incident is notified again
 * when it changes (an alert joins or resolves, a silence ends) with a higher `revision`; `incidentId` stays the
 * same, so services that deduplicate (PagerDuty `dedup_key`, Alertmanager labels) update one incident.
 */
export const notificationSchema = z.object({
  /** Unique per incident revision (`<incidentId>.r<revision>`); the same on every delivery attempt. */
  notificationId: z.string(),
  incidentId: z.string(),
  revision: z.number().int().positive(),
  /** `firing` while any alert of the notification fires; `resolved` once every one cleared. */
  status: z.enum(['firing', 'resolved']),
  /** The worst severity among the firing alerts (of all alerts once resolved). */
  severity: alertSeveritySchema,
  /** The service the incident belongs to (the engine's `Engine:Service:Name`). */
  service: z.string(),
  /** One line: `[FIRING] corekit-sample: 2 alerts (unhealthy)`. */
  title: z.string(),
  startedAtUtc: z.string(),
  resolvedAtUtc: z.string().nullable(),
  alerts: z.array(notificationAlertSchema).min(1),
  links: z.array(notificationLinkSchema),
});
export type AlertNotification = z.output<typeof notificationSchema>;

/** The title line of a notification (the kit's one wording, shared by every notifier). */
export function notificationTitle(
  notification: Pick<AlertNotification, 'status' | 'service' | 'severity' | 'alerts'>,
): string {
  const firing = notification.alerts.filter((alert) => alert.status === 'firing').length;
  const count = notification.status === 'firing' ? firing : notification.alerts.length;
  const noun = count === 1 ? 'alert' : 'alerts';
  return `[${notification.status.toUpperCase()}] ${notification.service}: ${count} ${noun} (${notification.severity})`;
}

/** One text line per alert (`unhealthy dependency inventory-api: GET ... answered 503`). */
export function alertLine(alert: NotificationAlert): string {
  const subject = alert.dependencyId ? `${alert.ruleId} ${alert.dependencyId}` : alert.ruleId;
  const state = alert.status === 'resolved' ? 'resolved' : alert.severity;
  return `${state} ${subject}: ${alert.description}`;
}
