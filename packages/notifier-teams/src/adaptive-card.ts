import type { AlertNotification } from '@corekit/notifier-kit';

const maxAlerts = 40;

/**
 * The workflow-webhook message of a notification: `{ type: 'message', attachments: [Adaptive Card] }`, the shape
 * the Teams "Post to a channel when a webhook request is received" workflow expects. The card (schema 1.4) has the
 * title in a colored TextBlock (attention for unhealthy, warning for degraded, good once resolved), a FactSet with
 * one fact per alert, a context line and one Action.OpenUrl per link.
 */
export function teamsMessage(notification: AlertNotification): Record<string, unknown> {
  const color =
    notification.status === 'resolved'
      ? 'Good'
      : notification.severity === 'unhealthy'
        ? 'Attention'
        : 'Warning';
  const alerts = notification.alerts.slice(0, maxAlerts);
  const hidden = notification.alerts.length - alerts.length;
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      { type: 'TextBlock', text: notification.title, weight: 'Bolder', size: 'Medium', color, wrap: true },
      {
        type: 'FactSet',
        facts: alerts.map((alert) => ({
          title: `${alert.status === 'resolved' ? 'resolved' : alert.severity} · ${alert.ruleId}${alert.dependencyId ? ` ${alert.dependencyId}` : ''}`,
          value: alert.description,
        })),
      },
      ...(hidden > 0 ? [{ type: 'TextBlock', text: `…and ${hidden} more alerts`, wrap: true }] : []),
      {
        type: 'TextBlock',
        text: `${notification.service} · incident ${notification.incidentId} (revision ${notification.revision}) · started ${notification.startedAtUtc}${notification.resolvedAtUtc ? ` · resolved ${notification.resolvedAtUtc}` : ''}`,
        isSubtle: true,
        size: 'Small',
        wrap: true,
      },
    ],
    actions: notification.links.map((link) => ({ type: 'Action.OpenUrl', title: link.label, url: link.url })),
  };
  return {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card },
    ],
  };
}
