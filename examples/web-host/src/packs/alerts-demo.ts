import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineOperation, type EngineBuilder } from '@corekit/abstractions';
import { addAlerts, type AlertsRegistration } from '@corekit/alerts';
import { addWebhookNotifier } from '@corekit/notifier-webhook';
import { AlertReceiver } from '../alert-receiver';
import type { InventoryUpstream } from '../inventory-upstream';

const receivedEventId = 9100;

/**
 * Alerts in the sample (`@corekit/alerts`, settings in engine.json `Engine:Alerts`): the two upstream dependencies,
 * readiness, liveness, lifecycle and the packs' attention views are watched. Outside production, a Standard
 * Webhooks target `sample-receiver` sends to a receiver the sample serves on its upstream server (a fresh signing
 * secret per start), and `GET /api/demo/alert-receiver` lists what arrived; each arrival is also logged. Add your
 * own targets in configuration (`Engine:Alerts:Notifiers:Webhook:Targets:1...`, `Slack`, `PagerDuty`...).
 */
export function addAlertsDemo(
  builder: EngineBuilder,
  upstream: InventoryUpstream,
  options: { readonly demo: boolean; readonly now?: () => number },
): AlertsRegistration {
  const alerts = addAlerts(builder, undefined, options.now ? { now: options.now } : {});
  if (!options.demo || !upstream.url) return alerts;
  builder.addEventIds({
    component: 'Sample alert receiver',
    ranges: [[receivedEventId, receivedEventId]],
    names: { [receivedEventId]: 'alert-received' },
  });
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = new AlertReceiver(secret, (alert) =>
    builder.logger.log({
      level: 'info',
      eventId: receivedEventId,
      category: 'sample-alert-receiver',
      message: `Alert received: ${alert.title} (${alert.alerts.map((item) => `${item.alertId} ${item.status}`).join(', ')})`,
    }),
  );
  upstream.addRoute('/alert-receiver', receiver.handle);
  addWebhookNotifier(builder, {
    Targets: [
      {
        Id: 'sample-receiver',
        DisplayName: 'Sample receiver',
        Url: `${upstream.url}/alert-receiver`,
        Secret: secret,
        TimeoutSeconds: 5,
      },
    ],
  });
  builder.addOperation(
    defineOperation({
      id: 'sample.alert-receiver',
      method: 'GET',
      path: '/api/demo/alert-receiver',
      summary: 'Demo: the alert notifications the sample receiver got, newest first (signatures verified)',
      authorization: { mode: 'anonymous' },
      result: z.object({ received: z.array(z.unknown()) }),
      handler: () => ({ received: [...receiver.received] }),
    }),
  );
  return alerts;
}
