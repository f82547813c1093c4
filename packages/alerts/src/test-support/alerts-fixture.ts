import { createHmac } from 'node:crypto';
import type { EngineBuilder, HealthStatus } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addWebhookNotifier } from '@corekit/notifier-webhook';
import { startNotifierService, type NotifierService } from '@corekit/testing/notifier-service';
import { pollUntil } from '@corekit/testing/poll-until';
import { emptyContentDirectory } from '@corekit/testing/test-engine-builder';
import type { RecordedHttpRequest } from '@corekit/testing/http-fake-server';
import type { AlertNotification } from '@corekit/notifier-kit';
import { addAlerts, type AlertsOptionsInput } from '../index';

export const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A Standard Webhooks receiver: verifies each signature before answering 204, answers 401 otherwise. */
export function startWebhookReceiver(): Promise<NotifierService> {
  const key = Buffer.from(webhookSecret.slice('whsec_'.length), 'base64');
  return startNotifierService((request) => {
    const signed = `${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`;
    const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
    return request.headers['webhook-signature'] === expected ? { status: 204 } : { status: 401 };
  });
}

/** The notifications a receiver accepted, parsed. */
export const notificationsOf = (service: NotifierService, path?: string): AlertNotification[] =>
  service.accepted
    .filter((request: RecordedHttpRequest) => path === undefined || request.path === path)
    .map((request: RecordedHttpRequest) => JSON.parse(request.body) as AlertNotification);

/** Dependencies whose status a test switches. */
export type Switches = Record<string, HealthStatus>;

export interface AlertsEngineOptions {
  readonly receiver: NotifierService;
  /** Dependency ids and their first status (`inventory-api` required, the others optional). */
  readonly dependencies?: Switches;
  readonly alerts?: AlertsOptionsInput;
  readonly configuration?: Record<string, unknown>;
  /** Installs a shared store provider (replica tests). */
  readonly stores?: (builder: EngineBuilder) => void;
  readonly clock: { now: number };
  /** More registrations before build (a pack's operator view...). */
  readonly register?: (builder: EngineBuilder) => void;
}

/**
 * An engine with switchable dependencies, the alerts pack (manual clock, jobs on long intervals so the test
 * triggers them) and two webhook targets on one receiver (`/a` and `/b`).
 */
export function alertsEngine(options: AlertsEngineOptions) {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    environment: {},
    contentRoot: emptyContentDirectory(),
    logger,
    configuration: {
      ...options.configuration,
      Engine: {
        Service: { Name: 'orders-service' },
        ...(options.configuration?.Engine as Record<string, unknown> | undefined),
      },
    },
  });
  options.stores?.(builder);
  options.register?.(builder);
  const switches: Switches = { ...(options.dependencies ?? { 'inventory-api': 'Healthy' }) };
  for (const id of Object.keys(switches)) {
    builder.addDependencyHealthContributor({
      id,
      displayName: id,
      kind: 'Http',
      required: id === 'inventory-api',
      refreshIntervalSeconds: 3600,
      check: async () =>
        switches[id] === 'Healthy'
          ? { status: 'Healthy' }
          : {
              status: switches[id],
              error: { code: 'UNEXPECTED_STATUS', message: `GET /${id}/healthz answered 503` },
            },
    });
  }
  const alerts = addAlerts(
    builder,
    {
      GroupWindow: '30s',
      EvaluationInterval: '1h',
      ...options.alerts,
      Delivery: { Interval: '1h', InitialBackoff: '10s', ...options.alerts?.Delivery },
    },
    { now: () => options.clock.now },
  );
  addWebhookNotifier(builder, {
    Targets: [
      { Id: 'hook-a', Url: `${options.receiver.url}/a`, Secret: webhookSecret, TimeoutSeconds: 2 },
      { Id: 'hook-b', Url: `${options.receiver.url}/b`, Secret: webhookSecret, TimeoutSeconds: 2 },
    ],
  });
  const engine = builder.build();
  const completed = async (outcome: Promise<{ status: string }>) => {
    const answer = await outcome;
    if (answer.status !== 'completed') throw new Error(`job run: ${JSON.stringify(answer)}`);
    return answer as { status: 'completed'; result: number };
  };
  return {
    engine,
    logger,
    /** Starts the engine and waits for the delivery job's startup pass, so the test's passes come after it. */
    async start(): Promise<void> {
      await engine.start();
      await pollUntil(
        async () => alerts.delivery.state(),
        (state) => state.runCount >= 1 && !state.running,
        { timeoutMs: 10_000 },
      );
    },
    alerts,
    switches,
    /** Runs every dependency check once and waits until the alerts pack sampled them. */
    async check(): Promise<void> {
      await engine.refreshDependencies();
      await alerts.idle();
    },
    /** One evaluation pass (samples, then stages what is due); answers how many notifications it staged. */
    evaluate: async () => (await completed(alerts.evaluation.trigger())).result,
    /** One delivery pass; answers how many deliveries it attempted. */
    deliver: async () => (await completed(alerts.delivery.trigger())).result,
    incidents: () => engine.catalog('alert-incidents')!.entries() as Array<Record<string, any>>,
    deliveries: () => engine.catalog('alert-deliveries')!.entries() as Array<Record<string, any>>,
    story: () => engine.runtimeStory().timeline.filter((entry) => entry.kind === 'alerts'),
  };
}
