import type { CatalogDefinition, OperatorViewDefinition } from '@corekit/abstractions';
import { alertSeveritySchema } from '@corekit/notifier-kit';
import {
  alertRuleIds,
  deliveryEntrySchema,
  incidentEntrySchema,
  silenceEntrySchema,
  utc,
  utcOrNull,
  type DeliveryEntry,
  type IncidentEntry,
  type IncidentRecord,
  type SilenceEntry,
  type SilenceRecord,
} from './alerts-model';
import { isInhibited } from './notification-plan';
import { silenceEntry, silencedBy } from './silences';

/** What the surfaces read: the shared state's synchronous copies and the pack's clock. */
export interface AlertsSurfaceSource {
  incidents(): readonly IncidentRecord[];
  silences(): readonly SilenceRecord[];
  deliveries(): readonly DeliveryEntry[];
  now(): number;
}

const worst = (record: IncidentRecord) => {
  const alerts = Object.values(record.alerts);
  const firing = alerts.filter((alert) => alert.status === 'firing');
  return (firing.length > 0 ? firing : alerts).some((alert) => alert.severity === 'unhealthy')
    ? 'unhealthy'
    : 'degraded';
};

export function incidentEntry(
  record: IncidentRecord,
  silences: readonly SilenceRecord[],
  now: number,
): IncidentEntry {
  return {
    incidentId: record.incidentId,
    service: record.service,
    status: record.status,
    severity: worst(record),
    openedAtUtc: utc(record.openedAtMs),
    groupUntilUtc: utc(record.groupUntilMs),
    resolvedAtUtc: utcOrNull(record.resolvedAtMs),
    updatedAtUtc: utc(record.updatedAtMs),
    revision: record.revision,
    notifiedStatus: record.notifiedStatus,
    alerts: Object.values(record.alerts).map((alert) => ({
      ...alert,
      silencedBy: silencedBy(silences, alert, now),
      inhibited: isInhibited(alert, record),
    })),
    lastNotification: record.lastNotification,
  };
}

const newestFirst = <T>(items: readonly T[], time: (item: T) => string) =>
  [...items].sort((a, b) => time(b).localeCompare(time(a)));

/** The three catalogs: incidents, silences, the delivery log (routes under /engine, snapshot fields). */
export function alertsCatalogs(source: AlertsSurfaceSource) {
  const incidents: CatalogDefinition<IncidentEntry> = {
    id: 'alert-incidents',
    displayName: 'Alert incidents',
    description:
      'Incidents of this service: the alerts that started together, their state and the last notification.',
    path: '/engine/alert-incidents',
    snapshotField: 'alertIncidents',
    idField: 'incidentId',
    entrySchema: incidentEntrySchema,
    views: [
      {
        segment: 'open',
        description: 'Incidents with a firing alert',
        select: (entry) => entry.status === 'firing',
      },
    ],
    list: () =>
      newestFirst(
        source.incidents().map((record) => incidentEntry(record, source.silences(), source.now())),
        (entry) => entry.openedAtUtc,
      ),
  };
  const silences: CatalogDefinition<SilenceEntry> = {
    id: 'alert-silences',
    displayName: 'Alert silences',
    description:
      'Silences: alerts they match are not notified until they end. Created and expired through operations.',
    path: '/engine/alert-silences',
    snapshotField: 'alertSilences',
    idField: 'silenceId',
    entrySchema: silenceEntrySchema,
    views: [
      {
        segment: 'active',
        description: 'Silences in effect now',
        select: (entry) => entry.state === 'active',
      },
    ],
    list: () =>
      newestFirst(
        source.silences().map((silence) => silenceEntry(silence, source.now())),
        (entry) => entry.createdAtUtc,
      ),
  };
  const deliveries: CatalogDefinition<DeliveryEntry> = {
    id: 'alert-deliveries',
    displayName: 'Alert delivery log',
    description:
      'Each notification per notifier target: attempts, outcome, response code and the next attempt.',
    path: '/engine/alert-deliveries',
    snapshotField: 'alertDeliveries',
    idField: 'deliveryId',
    entrySchema: deliveryEntrySchema,
    views: [
      {
        segment: 'failed',
        description: 'Deliveries that gave up',
        select: (entry) => entry.outcome === 'failed',
      },
      {
        segment: 'retrying',
        description: 'Deliveries waiting for another attempt',
        select: (entry) => entry.outcome === 'retrying',
      },
    ],
    list: () => newestFirst(source.deliveries(), (entry) => entry.stagedAtUtc),
  };
  return [incidents, silences, deliveries] as const;
}

/** Operator views: open incidents, silences in effect (with the expire action), deliveries failing or retrying. */
export function alertsOperatorViews(
  source: AlertsSurfaceSource,
  catalogs: ReturnType<typeof alertsCatalogs>,
) {
  const [incidents, silences, deliveries] = catalogs;
  const openIncidents: OperatorViewDefinition<IncidentEntry> = {
    id: 'alert-incidents-open',
    title: 'Open alert incidents',
    description: 'Incidents of this service with a firing alert; silenced and inhibited alerts are marked.',
    listPath: '/engine/alert-incidents/open',
    idField: 'incidentId',
    entryPath: '/engine/alert-incidents/{incidentId}',
    columns: [
      { label: 'Severity', value: (entry) => entry.severity },
      {
        label: 'Alerts',
        value: (entry) =>
          entry.alerts
            .filter((alert) => alert.status === 'firing')
            .map((alert) => alert.alertId)
            .join(', '),
      },
      { label: 'Opened', value: (entry) => entry.openedAtUtc, format: 'time' },
      { label: 'Notified', value: (entry) => entry.notifiedStatus },
      { label: 'Revision', value: (entry) => entry.revision },
    ],
    rows: () => incidents.list!().filter((entry) => entry.status === 'firing'),
  };
  const activeSilences: OperatorViewDefinition<SilenceEntry> = {
    id: 'alert-silences-active',
    title: 'Alert silences in effect',
    description: 'Matching alerts are not notified until the end time; expire one to notify again.',
    listPath: '/engine/alert-silences/active',
    idField: 'silenceId',
    entryPath: '/engine/alert-silences/{silenceId}',
    columns: [
      { label: 'Matchers', value: (entry) => JSON.stringify(entry.matchers) },
      { label: 'Ends', value: (entry) => entry.endsAtUtc, format: 'countdown' },
      { label: 'Created by', value: (entry) => entry.createdBy },
      { label: 'Comment', value: (entry) => entry.comment },
    ],
    actions: [{ operationId: 'alerts.expire-silence', label: 'Expire', params: { silenceId: 'silenceId' } }],
    forms: [
      {
        operationId: 'alerts.create-silence',
        label: 'New silence',
        description: 'Matching alerts are not notified until it ends; give at least one matcher.',
        fields: [
          { name: 'matchers.dependencyId', label: 'Dependency id', kind: 'text', hint: 'e.g. inventory-api' },
          { name: 'matchers.ruleId', label: 'Rule', kind: 'choice', choices: alertRuleIds },
          {
            name: 'matchers.severity',
            label: 'Severity',
            kind: 'choice',
            choices: alertSeveritySchema.options,
          },
          {
            name: 'endsAtUtc',
            label: 'Ends in (minutes)',
            kind: 'minutes-from-now',
            required: true,
            defaultValue: '60',
          },
          { name: 'comment', label: 'Comment', kind: 'text', required: true, hint: 'why, and who to ask' },
        ],
      },
    ],
    rows: () => silences.list!().filter((entry) => entry.state === 'active'),
  };
  const failing: OperatorViewDefinition<DeliveryEntry> = {
    id: 'alert-deliveries-failing',
    title: 'Alert deliveries failing',
    description:
      'Notifications a notifier target refused or did not answer: retrying with backoff, or given up.',
    listPath: '/engine/alert-deliveries',
    idField: 'deliveryId',
    entryPath: '/engine/alert-deliveries/{deliveryId}',
    columns: [
      { label: 'Notifier', value: (entry) => entry.notifierId },
      { label: 'Outcome', value: (entry) => entry.outcome },
      { label: 'Attempts', value: (entry) => entry.attempts },
      { label: 'Response', value: (entry) => entry.responseCode },
      { label: 'Next attempt', value: (entry) => entry.nextAttemptAtUtc, format: 'countdown' },
      { label: 'Error', value: (entry) => entry.lastError },
    ],
    rows: () =>
      deliveries.list!().filter((entry) => entry.outcome === 'failed' || entry.outcome === 'retrying'),
  };
  void source;
  return [openIncidents, activeSilences, failing] as const;
}
