import { alertLine, type AlertNotification } from '@corekit/notifier-kit';

/** PagerDuty's severities: an unhealthy incident is `critical`, a degraded one `warning`. */
export const pagerDutySeverity = { unhealthy: 'critical', degraded: 'warning' } as const;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The Events API v2 event of a notification: `trigger` while firing (a later revision of the same incident updates
 * the PagerDuty incident, as the dedup key is the incident id), `resolve` once resolved.
 */
export function pagerDutyEvent(
  notification: AlertNotification,
  routingKey: string,
  source: string,
): Record<string, unknown> {
  const dedupKey = notification.incidentId;
  if (notification.status === 'resolved') {
    return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
  }
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: cut(notification.title, 1024),
      source,
      severity: pagerDutySeverity[notification.severity],
      timestamp: notification.startedAtUtc,
      component: notification.service,
      group: notification.alerts[0]?.ruleId ?? 'alerts',
      class: notification.alerts
        .map((alert) => alert.ruleId)
        .filter((rule, index, all) => all.indexOf(rule) === index)
        .join(','),
      custom_details: {
        revision: notification.revision,
        alerts: notification.alerts.map(alertLine),
      },
    },
    links: notification.links.map((link) => ({ href: link.url, text: link.label })),
    client: 'Core alerts',
    ...(notification.links[0] ? { client_url: notification.links[0].url } : {}),
  };
}
