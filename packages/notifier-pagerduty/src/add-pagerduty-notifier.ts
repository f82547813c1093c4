import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { defineNotifier, postJson } from '@corekit/notifier-kit';
import { pagerDutyEvent } from './pagerduty-event';

/** The fields of one PagerDuty target (besides Id, DisplayName, MinimumSeverity, SendResolved, TimeoutSeconds). */
export const pagerDutyTargetShape = {
  /** The integration key of an Events API v2 integration on the PagerDuty service (32 characters). */
  RoutingKey: secretString('the Events API v2 integration (routing) key'),
  /** Where events go; default `https://events.pagerduty.com` (EU accounts: `https://events.eu.pagerduty.com`). */
  ApiUrl: z.url({ protocol: /^https?$/ }).default('https://events.pagerduty.com'),
  /** `payload.source`: where the problem is. Default the alerts' service name. */
  Source: z.string().min(1).max(255).optional(),
};

/**
 * Registers PagerDuty targets from `Engine:Alerts:Notifiers:PagerDuty:Targets`: each notification is an Events API
 * v2 event (`POST <ApiUrl>/v2/enqueue`), `trigger` while the incident fires and `resolve` once it cleared, with
 * `dedup_key` = the incident id, so every revision updates one PagerDuty incident. PagerDuty answers 202; 429 and
 * 5xx are retried, 400 (`invalid event`) is terminal.
 */
export const addPagerDutyNotifier = defineNotifier({
  kind: 'PagerDuty',
  packageName: '@corekit/notifier-pagerduty',
  targetShape: pagerDutyTargetShape,
  validateTarget: (target, issue) => {
    if (!/^[A-Za-z0-9]{32}$/.test(target.RoutingKey))
      issue('RoutingKey', 'must be the 32-character integration key');
  },
  describeTarget: (target) => new URL(target.ApiUrl).host,
  send: (notification, target, { signal }) =>
    postJson(
      `${target.ApiUrl.replace(/\/$/, '')}/v2/enqueue`,
      pagerDutyEvent(notification, target.RoutingKey, target.Source ?? notification.service),
      { signal, accepted: [202] },
    ),
});
