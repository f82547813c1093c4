import {
  StoreMirror,
  type Engine,
  type EngineBuilder,
  type JobHandle,
  type KeyedStore,
} from '@corekit/abstractions';
import { KeyedOutboxStore } from '@corekit/eventing';
import { notifierRegistryOf, type AlertNotification } from '@corekit/notifier-kit';
import type { AlertsRecord, AlertState, DeliveryEntry } from './alerts-model';
import { utc } from './alerts-model';
import {
  alertsOptionsSchema,
  alertsSectionPath,
  type AlertsOptions,
  type AlertsOptionsInput,
} from './alerts-options';
import { AlertDelivery } from './alert-delivery';
import { alertsEventIdCatalog, alertsEventIds } from './alerts-event-ids';
import { alertsOperations } from './alerts-operations';
import { alertsReporter } from './alerts-reporter';
import { alertsCatalogs, alertsOperatorViews } from './alerts-surfaces';
import { FactObserver, type AlertSubject } from './fact-observer';
import { IncidentBook } from './incident-book';
import type { TrackerTransition } from './alert-tracker';

export const alertsRegistrationKey = '@corekit/alerts';

/** Code that cannot live in configuration. */
export interface AlertsExtensions {
  /** The pack's clock (epoch milliseconds): windows, silences, backoff and lease times. Tests pass a manual one. */
  readonly now?: () => number;
}

/** What `addAlerts` answers: the two jobs (tests trigger them) and a way to wait for queued samples. */
export interface AlertsRegistration {
  readonly settings: AlertsOptions;
  /** Samples readiness, liveness, lifecycle and attention, then stages the notifications that are due. */
  readonly evaluation: JobHandle<number>;
  /** Sends due notifications (claimed under a lease), one attempt each. */
  readonly delivery: JobHandle<number>;
  /** Resolves once every dependency check seen so far has been sampled and recorded. */
  idle(): Promise<void>;
}

type OutboxRecords = ConstructorParameters<typeof KeyedOutboxStore>[0];

/**
 * Registers the alerts pack: rules over the engine's own facts, incidents per service, silences, notifications
 * staged durably and delivered by exactly one replica through the notifier targets that notifier packages
 * (`@corekit/notifier-webhook`...) register. Section `Engine:Alerts`.
 */
export function addAlerts(
  builder: EngineBuilder,
  options?: AlertsOptionsInput,
  extensions: AlertsExtensions = {},
): AlertsRegistration {
  builder.claimRegistration({ packageName: '@corekit/alerts', entry: 'addAlerts' });
  builder.declarePack({ packageName: '@corekit/alerts', specificationVersion: 1 });
  const settings = builder.configuration.bind(
    alertsSectionPath,
    alertsOptionsSchema,
    options,
  ) as AlertsOptions;
  const now = extensions.now ?? Date.now;
  const registry = notifierRegistryOf(builder);
  registry.consume(alertsRegistrationKey);
  builder.addEventIds(alertsEventIdCatalog);
  const reporter = alertsReporter(builder);

  const store = builder.openStore<AlertsRecord>('alerts', {
    maxEntries: settings.MaxIncidents + settings.Silences.MaxSilences + 16,
    description: 'alert incidents, the open incident of the service, silences',
  });
  const log = builder.openStore<DeliveryEntry>('alerts-deliveries', {
    maxEntries: settings.MaxIncidents * 20,
    description: 'the alert delivery log',
  });
  const outboxStore = builder.openStore('alerts-outbox', {
    maxEntries: settings.MaxIncidents * 40,
    description: 'alert notifications staged for delivery',
  }) as OutboxRecords;
  const refreshMs = Math.min(settings.EvaluationInterval, 2_000);
  const onRefreshFailure = (error: unknown) => reporter.evaluationFailed('state refresh', error);
  const mirror = new StoreMirror<AlertsRecord>(store, { refreshMs, onRefreshFailure });
  const logMirror = new StoreMirror<DeliveryEntry>(log, { refreshMs, onRefreshFailure });
  const book = new IncidentBook(store, mirror, {
    service: builder.service.name,
    groupWindowMs: settings.GroupWindow,
    retentionMs: settings.Delivery.Retention,
    now,
  });
  const outbox = new KeyedOutboxStore(outboxStore, 24 * 3_600_000, now);
  const delivery = new AlertDelivery(
    outbox,
    log as KeyedStore<DeliveryEntry>,
    logMirror,
    registry,
    { delivery: settings.Delivery, instanceId: builder.instanceId, now },
    reporter,
  );

  const source = {
    incidents: () => book.incidents(),
    silences: () => book.silences(),
    deliveries: () => delivery.entries(),
    now,
  };
  const catalogs = alertsCatalogs(source);
  const views = alertsOperatorViews(source, catalogs);
  builder.addCatalog(catalogs[0]).addCatalog(catalogs[1]).addCatalog(catalogs[2]);
  builder.addOperatorView(views[0]).addOperatorView(views[1]).addOperatorView(views[2]);
  for (const operation of alertsOperations(
    book,
    { maxDurationMs: settings.Silences.MaxDuration, now },
    { created: reporter.silenceCreated, expired: reporter.silenceExpired },
  )) {
    builder.addOperation(operation);
  }
  const ownSurfaces = new Set<string>([
    ...catalogs.map((catalog) => catalog.id),
    ...views.map((view) => view.id),
  ]);

  const links = (incidentId: string): AlertNotification['links'] =>
    settings.BaseUrl
      ? [
          {
            label: 'Incident',
            url: `${settings.BaseUrl.replace(/\/$/, '')}/engine/alert-incidents/${incidentId}`,
          },
          {
            label: 'Open incidents',
            url: `${settings.BaseUrl.replace(/\/$/, '')}/engine/alert-incidents/open`,
          },
        ]
      : [];

  const record = async (subject: AlertSubject, transition: TrackerTransition) => {
    reporter.transition(subject, transition);
    if (transition.kind === 'fire' || transition.kind === 'update') {
      const alert: AlertState = {
        ...subject,
        severity: transition.severity,
        status: 'firing',
        description: transition.description,
        startedAtUtc: utc(now()),
        resolvedAtUtc: null,
        flapping: transition.flapping,
      };
      await book.fire(alert);
    } else if (transition.kind === 'resolve') {
      await book.resolve(subject.alertId);
    }
  };

  let observer: FactObserver | undefined;
  let running = false;
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work).catch((error: unknown) => reporter.evaluationFailed('sample', error));
    return queue;
  };

  const evaluation = builder.addJob<number>({
    id: 'alerts.evaluate',
    displayName: 'Alerts: sample facts and stage due notifications',
    owner: 'alerts',
    intervalMs: settings.EvaluationInterval,
    async run() {
      if (!running || !observer) return 0;
      const current = observer;
      await enqueue(() => current.samplePass());
      await queue;
      await mirror.load();
      return book.stageDue(links, (notification) => delivery.stage(notification));
    },
  });
  const deliveryJob = builder.addJob<number>({
    id: 'alerts.deliver',
    displayName: 'Alerts: deliver staged notifications',
    owner: 'alerts',
    intervalMs: settings.Delivery.Interval,
    runOnStartup: true,
    run: ({ signal }) => (running ? delivery.deliverDue(signal) : Promise.resolve(0)),
  });

  builder.addLifecycleHooks({
    id: 'alerts',
    attach(engine: Engine) {
      observer = new FactObserver(engine, settings, now, record, ownSurfaces);
      engine.subscribe((event) => {
        if (!running || !settings.Enabled || event.type !== 'dependency-checked' || !observer) return;
        const current = observer;
        void enqueue(() => current.dependencyChecked(event.entry));
      });
    },
    async started() {
      const shared = builder.storeTraits().shared;
      await Promise.all([mirror.start(shared), logMirror.start(shared)]);
      running = settings.Enabled;
      const notifiers = registry.list();
      if (notifiers.length === 0) {
        reporter.log(
          'warn',
          alertsEventIds.noNotifiers,
          'Alerts are evaluated but no notifier target is registered (add<Kind>Notifier): incidents are recorded, nothing is sent',
        );
      } else {
        reporter.log(
          'info',
          alertsEventIds.started,
          `Alerts for ${builder.service.name}: ${notifiers.length} notifier target(s): ${notifiers.map((notifier) => `${notifier.id} (${notifier.kind}, ${notifier.target})`).join(', ')}`,
        );
      }
    },
    async stopping() {
      running = false;
      mirror.stop();
      logMirror.stop();
      await queue;
    },
  });

  builder.addTechnologySurfaces(() => [
    {
      id: 'alerts',
      kind: 'alerting',
      displayName: 'Alerts',
      sourcePackage: '@corekit/alerts',
      metadata: {
        service: builder.service.name,
        enabled: settings.Enabled,
        notifiers: registry
          .list()
          .map((notifier) => ({ id: notifier.id, kind: notifier.kind, target: notifier.target })),
        openIncidents: book.incidents().filter((incident) => incident.status === 'firing').length,
        delivery: 'eventing KeyedOutboxStore on engine store alerts-outbox, claimed under a lease',
      },
    },
  ]);

  return { settings, evaluation, delivery: deliveryJob, idle: () => queue };
}
