import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { defineNotifier, postJson } from '@corekit/notifier-kit';
import { slackMessage } from './slack-message';

/** The fields of one Slack target (besides Id, DisplayName, MinimumSeverity, SendResolved, TimeoutSeconds). */
export const slackTargetShape = {
  /**
   * The incoming webhook URL Slack gave (`https://hooks.slack.com/services/T.../B.../...`). Its path is the
   * credential: it is a secret, redacted everywhere, and only its host is ever shown.
   */
  Url: secretString('the Slack incoming webhook URL (its path is the credential)'),
};

/**
 * Registers Slack targets from `Engine:Alerts:Notifiers:Slack:Targets`: each notification is POSTed to the
 * incoming webhook as `{ text, blocks }` (Block Kit). Slack answers 200 `ok`; 429 (with `Retry-After`) and 5xx are
 * retried, any other 4xx (`invalid_payload`, `no_service`, `channel_is_archived`) is terminal.
 */
export const addSlackNotifier = defineNotifier({
  kind: 'Slack',
  packageName: '@corekit/notifier-slack',
  targetShape: slackTargetShape,
  validateTarget: (target, issue) => {
    const parsed = z.url({ protocol: /^https?$/ }).safeParse(target.Url);
    if (!parsed.success) issue('Url', 'must be the http(s) incoming webhook URL Slack gave');
  },
  describeTarget: (target) => new URL(target.Url).host,
  send: (notification, target, { signal }) => postJson(target.Url, slackMessage(notification), { signal }),
});
