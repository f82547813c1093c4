import { createHash } from 'node:crypto';
import { alertLine, notificationTitle, type AlertNotification } from '@corekit/notifier-kit';

/** One alert notification as an email: subject, plain text, HTML, and the ids a reader (or a filter) may match. */
export interface AlertEmail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** 32 hex characters derived from the notification id: the same on every retry (the SMTP Message-Id). */
  readonly messageId: string;
  readonly headers: Readonly<Record<string, string>>;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** `2026-12-01T10:00:00.000Z` → `2026-12-01 10:00:00 UTC`. */
const utc = (value: string) => `${value.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC`;

/**
 * Renders a notification: the subject is the kit's title (`[FIRING] orders-service: 2 alerts (unhealthy)`:
 * status, service and severity), the text one line per alert with when it started (and resolved) and the links;
 * the HTML the same as a table, every value escaped.
 */
export function renderAlertEmail(notification: AlertNotification): AlertEmail {
  const subject = notificationTitle(notification);
  const when = notification.resolvedAtUtc
    ? `Started ${utc(notification.startedAtUtc)}, resolved ${utc(notification.resolvedAtUtc)}.`
    : `Started ${utc(notification.startedAtUtc)}.`;
  const text = [
    subject,
    '',
    ...notification.alerts.map((alert) => `- ${alertLine(alert)}`),
    '',
    when,
    `Incident ${notification.incidentId}, revision ${notification.revision}.`,
    ...notification.links.map((link) => `${link.label}: ${link.url}`),
    '',
  ].join('\n');
  const rows = notification.alerts
    .map(
      (alert) =>
        `<tr><td>${escapeHtml(alert.status === 'resolved' ? 'resolved' : alert.severity)}</td>` +
        `<td>${escapeHtml(alert.dependencyId ? `${alert.ruleId} ${alert.dependencyId}` : alert.ruleId)}</td>` +
        `<td>${escapeHtml(alert.description)}</td></tr>`,
    )
    .join('');
  const links = notification.links
    .map((link) => `<li><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></li>`)
    .join('');
  const html =
    `<!doctype html><html><body><h2>${escapeHtml(subject)}</h2>` +
    `<table border="1" cellpadding="4" cellspacing="0"><thead><tr><th>State</th><th>Alert</th><th>What failed</th></tr></thead>` +
    `<tbody>${rows}</tbody></table><p>${escapeHtml(when)} Incident ${escapeHtml(notification.incidentId)}, revision ${notification.revision}.</p>` +
    (links ? `<ul>${links}</ul>` : '') +
    `</body></html>`;
  return {
    subject,
    text,
    html,
    messageId: createHash('sha256').update(notification.notificationId).digest('hex').slice(0, 32),
    headers: {
      'X-Core-Incident-Id': notification.incidentId,
      'X-Core-Notification-Id': notification.notificationId,
    },
  };
}
