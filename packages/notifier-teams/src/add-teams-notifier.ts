import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { defineNotifier, postJson } from '@corekit/notifier-kit';
import { teamsMessage } from './adaptive-card';

/** The fields of one Teams target (besides Id, DisplayName, MinimumSeverity, SendResolved, TimeoutSeconds). */
export const teamsTargetShape = {
  /**
   * The HTTP POST URL of a Teams workflow ("Post to a channel when a webhook request is received"). Its `sig`
   * query parameter is the credential: a secret, only the host is shown.
   */
  Url: secretString('the Teams workflow webhook URL (its sig parameter is the credential)'),
};

/**
 * Registers Microsoft Teams targets from `Engine:Alerts:Notifiers:Teams:Targets`: each notification is POSTed to
 * the workflow webhook as a message with one Adaptive Card attachment. The workflow answers 202 (200 from some
 * connectors); 429 and 5xx are retried, other 4xx are terminal.
 */
export const addTeamsNotifier = defineNotifier({
  kind: 'Teams',
  packageName: '@corekit/notifier-teams',
  targetShape: teamsTargetShape,
  validateTarget: (target, issue) => {
    if (!z.url({ protocol: /^https?$/ }).safeParse(target.Url).success) {
      issue('Url', 'must be the http(s) URL of the Teams workflow trigger');
    }
  },
  describeTarget: (target) => new URL(target.Url).host,
  send: (notification, target, { signal }) => postJson(target.Url, teamsMessage(notification), { signal }),
});
