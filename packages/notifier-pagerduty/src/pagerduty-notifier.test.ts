import { notifierConformanceSuite } from '@corekit/testing/notifier-conformance';
import { startNotifierService } from '@corekit/testing/notifier-service';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import { addPagerDutyNotifier } from './index';

const routingKey = 'R0UT1NGKEYC0NF0RMANCE0123456789A';

/**
 * Answers as the PagerDuty Events API v2 does (developer.pagerduty.com, "Send an Alert Event"): `POST /v2/enqueue`
 * only; 400 `invalid event` with `errors` for an unknown routing key, an event_action other than trigger,
 * acknowledge or resolve, a dedup_key over 255 characters, or a trigger without `payload.summary` (at most 1024),
 * `payload.source` and a `payload.severity` of critical, error, warning or info; otherwise 202 with the dedup key.
 */
function pagerDutyAnswer(request: RecordedHttpRequest) {
  if (request.method !== 'POST' || request.path !== '/v2/enqueue')
    return { status: 404, body: { status: 'not found' } };
  const invalid = (error: string) => ({
    status: 400,
    body: { status: 'invalid event', message: 'Event object is invalid', errors: [error] },
  });
  let event: Record<string, any>;
  try {
    event = JSON.parse(request.body);
  } catch {
    return invalid('Invalid JSON');
  }
  if (event.routing_key !== routingKey) return invalid("'routing_key' is invalid");
  if (!['trigger', 'acknowledge', 'resolve'].includes(event.event_action))
    return invalid("'event_action' is invalid");
  if (typeof event.dedup_key !== 'string' || event.dedup_key.length > 255)
    return invalid("'dedup_key' is invalid");
  if (event.event_action === 'trigger') {
    const payload = event.payload ?? {};
    if (typeof payload.summary !== 'string' || !payload.summary || payload.summary.length > 1024)
      return invalid("'payload.summary' is missing or too long");
    if (typeof payload.source !== 'string' || !payload.source) return invalid("'payload.source' is missing");
    if (!['critical', 'error', 'warning', 'info'].includes(payload.severity))
      return invalid("'payload.severity' is invalid");
  }
  return { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: event.dedup_key } };
}

notifierConformanceSuite({
  kind: 'PagerDuty',
  add: addPagerDutyNotifier as never,
  startService: () => startNotifierService(pagerDutyAnswer),
  target: (url) => ({ RoutingKey: routingKey, ApiUrl: url }),
  secret: routingKey,
  verify: (request, notification) => {
    const event = JSON.parse(request.body);
    expect(event.dedup_key).toBe(notification.incidentId);
    if (notification.status === 'resolved') {
      expect(event).toEqual({
        routing_key: routingKey,
        event_action: 'resolve',
        dedup_key: notification.incidentId,
      });
      return;
    }
    expect(event).toMatchObject({
      event_action: 'trigger',
      payload: { severity: 'critical', summary: notification.title, source: notification.service },
    });
    for (const alert of notification.alerts) {
      expect(event.payload.custom_details.alerts.join('\n')).toContain(
        `${alert.severity} ${alert.ruleId} ${alert.dependencyId}`,
      );
    }
  },
});

it('a degraded incident is a warning', async () => {
  const { sampleNotification } = await import('@corekit/testing/notifier-conformance');
  const { pagerDutyEvent } = await import('./index');
  expect(
    pagerDutyEvent({ ...sampleNotification(), severity: 'degraded' }, routingKey, 'orders'),
  ).toMatchObject({ payload: { severity: 'warning' } });
});
