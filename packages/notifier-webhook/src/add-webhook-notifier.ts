import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { defineNotifier, postJson } from '@corekit/notifier-kit';
import { standardWebhookHeaders, webhookSecretKey } from './standard-webhooks';

/** The fields of one webhook target (besides Id, DisplayName, MinimumSeverity, SendResolved, TimeoutSeconds). */
export const webhookTargetShape = {
  /** Where notifications are POSTed (http or https). */
  Url: z.url({ protocol: /^https?$/ }),
  /**
   * The Standard Webhooks signing secret, `whsec_` and a base64 key of 24 to 64 bytes (what `svix` and the
   * standard-webhooks libraries generate). Receivers verify `webhook-signature` with it.
   */
  Secret: secretString('the whsec_ signing secret shared with the receiver'),
  /** Extra request headers (an API gateway key...); their values are treated as secrets. Default none. */
  Headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/), z.string()).default({}),
};

/**
 * Registers generic webhook notifier targets from `Engine:Alerts:Notifiers:Webhook:Targets`. Each notification is
 * POSTed as JSON (the `AlertNotification` itself) with the Standard Webhooks headers: `webhook-id` (the
 * notification id, the same on every retry so a receiver can deduplicate), `webhook-timestamp` (seconds) and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`).
 */
export const addWebhookNotifier = defineNotifier({
  kind: 'Webhook',
  packageName: '@corekit/notifier-webhook',
  targetShape: webhookTargetShape,
  validateTarget: (target, issue) => {
    if (!webhookSecretKey(target.Secret)) {
      issue(
        'Secret',
        'must be "whsec_" followed by a base64 key of 24 to 64 bytes (a Standard Webhooks secret)',
      );
    }
  },
  describeTarget: (target) => new URL(target.Url).host,
  secretValues: (target) => Object.values(target.Headers),
  send: (notification, target, { signal }) => {
    const body = JSON.stringify(notification);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      ...target.Headers,
      ...standardWebhookHeaders(target.Secret, notification.notificationId, timestamp, body),
    };
    return postJson(target.Url, undefined, { signal, headers, body });
  },
});
