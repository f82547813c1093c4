import { notifierConformanceSuite } from '@corekit/testing/notifier-conformance';
import { startNotifierService } from '@corekit/testing/notifier-service';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import { addAlertmanagerNotifier } from './index';

const token = 'am-proxy-token-conformance-0123456789';
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/**
 * Answers as Alertmanager's API v2 does for `POST /api/v2/alerts` (postableAlerts in its OpenAPI document): the
 * body must be an array of alerts, each with a non-empty `labels` map of string values whose names match
 * `[a-zA-Z_][a-zA-Z0-9_]*`, string `annotations`, RFC 3339 `startsAt`/`endsAt` (endsAt not before startsAt);
 * 400 otherwise; 200 when valid. A proxy in front asks for the bearer token (401).
 */
function alertmanagerAnswer(request: RecordedHttpRequest) {
  if (request.headers.authorization !== `Bearer ${token}`) return { status: 401, body: 'unauthorized' };
  if (request.method !== 'POST' || request.path !== '/api/v2/alerts')
    return { status: 404, body: 'not found' };
  let alerts: unknown;
  try {
    alerts = JSON.parse(request.body);
  } catch {
    return { status: 400, body: 'invalid JSON' };
  }
  if (!Array.isArray(alerts)) return { status: 400, body: 'body must be an array of alerts' };
  for (const alert of alerts as Array<Record<string, any>>) {
    const labels = Object.entries(alert.labels ?? {});
    if (
      labels.length === 0 ||
      !labels.every(([name, value]) => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name) && typeof value === 'string')
    ) {
      return { status: 400, body: 'invalid labels' };
    }
    if (!Object.values(alert.annotations ?? {}).every((value) => typeof value === 'string'))
      return { status: 400, body: 'invalid annotations' };
    for (const field of ['startsAt', 'endsAt']) {
      if (alert[field] !== undefined && !rfc3339.test(alert[field]))
        return { status: 400, body: `invalid ${field}` };
    }
    if (alert.endsAt && alert.startsAt && alert.endsAt < alert.startsAt)
      return { status: 400, body: 'start time must be before end time' };
  }
  return { status: 200, body: '' };
}

notifierConformanceSuite({
  kind: 'Alertmanager',
  add: addAlertmanagerNotifier as never,
  startService: () => startNotifierService(alertmanagerAnswer),
  target: (url) => ({ Url: url, BearerToken: token, Labels: { team: 'orders' } }),
  secret: token,
  verify: (request, notification) => {
    const alerts = JSON.parse(request.body) as Array<Record<string, any>>;
    expect(alerts).toHaveLength(notification.alerts.length);
    notification.alerts.forEach((alert, index) => {
      expect(alerts[index]).toMatchObject({
        labels: {
          alertname: 'CorekitDependency',
          severity: alert.severity,
          dependency: alert.dependencyId,
          team: 'orders',
          incident_id: notification.incidentId,
        },
        annotations: { description: alert.description },
        startsAt: alert.startedAtUtc,
      });
      expect(alerts[index].endsAt).toBe(alert.status === 'resolved' ? alert.resolvedAtUtc : undefined);
    });
  },
});
