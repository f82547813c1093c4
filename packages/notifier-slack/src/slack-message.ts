import { alertLine, type AlertNotification } from '@corekit/notifier-kit';

/** Slack's limits: 50 blocks per message, 3000 characters per section text, 150 per header. */
const maxAlertBlocks = 44;
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** Slack mrkdwn: `&`, `<` and `>` are the characters to escape. */
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const icon = (notification: AlertNotification) =>
  notification.status === 'resolved'
    ? ':white_check_mark:'
    : notification.severity === 'unhealthy'
      ? ':red_circle:'
      : ':large_yellow_circle:';

/**
 * The incoming-webhook message of a notification: `text` (the fallback shown in notifications) and Block Kit
 * `blocks`: a header, one section per alert (severity, rule, subject, what failed), a context line (service,
 * incident, revision, started) and the links.
 */
export function slackMessage(notification: AlertNotification): Record<string, unknown> {
  const alerts = notification.alerts.slice(0, maxAlertBlocks);
  const hidden = notification.alerts.length - alerts.length;
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(notification.title, 150), emoji: true } },
    ...alerts.map((alert) => ({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*${alert.status === 'resolved' ? 'resolved' : alert.severity}* · ${alert.ruleId}${alert.dependencyId ? ` \`${escape(alert.dependencyId)}\`` : ''}\n${escape(alert.description)}`,
          3000,
        ),
      },
    })),
    ...(hidden > 0
      ? [{ type: 'section', text: { type: 'mrkdwn', text: `…and ${hidden} more alerts` } }]
      : []),
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `${escape(notification.service)} · incident ${notification.incidentId} (revision ${notification.revision}) · started ${notification.startedAtUtc}${notification.resolvedAtUtc ? ` · resolved ${notification.resolvedAtUtc}` : ''}`,
        },
      ],
    },
  ];
  if (notification.links.length > 0) {
    const links = notification.links.map((link) => `<${link.url}|${escape(link.label)}>`).join(' · ');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(links, 3000) } });
  }
  const text = `${icon(notification)} ${notification.title}\n${notification.alerts.map(alertLine).join('\n')}`;
  return { text: cut(text, 3000), blocks };
}
