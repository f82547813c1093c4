import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { defineNotifier, postJson } from '@corekit/notifier-kit';
import { alertmanagerAlerts } from './alertmanager-alerts';

/** The fields of one Alertmanager target (besides Id, DisplayName, MinimumSeverity, SendResolved, TimeoutSeconds). */
export const alertmanagerTargetShape = {
  /** The Alertmanager base URL (`http://alertmanager:9093`); alerts go to `<Url>/api/v2/alerts`. */
  Url: z.url({ protocol: /^https?$/ }),
  /** A bearer token, when Alertmanager sits behind a proxy that asks for one. */
  BearerToken: secretString('a bearer token for the Alertmanager API').optional(),
  /** Labels added to every alert (`team: payments`); names must be Prometheus label names. */
  Labels: z.record(z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/), z.string()).default({}),
};

/**
 * Registers Prometheus Alertmanager targets from `Engine:Alerts:Notifiers:Alertmanager:Targets`: each
 * notification is `POST <Url>/api/v2/alerts` with one alert per alert of the incident (labels, annotations,
 * startsAt, endsAt once resolved), for teams whose routing, grouping and receivers already live in Alertmanager.
 */
export const addAlertmanagerNotifier = defineNotifier({
  kind: 'Alertmanager',
  packageName: '@corekit/notifier-alertmanager',
  targetShape: alertmanagerTargetShape,
  describeTarget: (target) => new URL(target.Url).host,
  send: (notification, target, { signal }) =>
    postJson(
      `${target.Url.replace(/\/$/, '')}/api/v2/alerts`,
      alertmanagerAlerts(notification, target.Labels),
      {
        signal,
        headers: target.BearerToken ? { authorization: `Bearer ${target.BearerToken}` } : {},
      },
    ),
});
