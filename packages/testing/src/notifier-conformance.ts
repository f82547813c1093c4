import {
  notifierRegistryKey,
  type AlertNotification,
  type Notifier,
  type NotifierOutcome,
} from '@corekit/notifier-kit';
import type { RecordedHttpRequest } from './http-fake-server';
import { refusedPort } from './network-helpers';
import type { NotifierService } from './notifier-service';
import { createTestEngineBuilder } from './test-engine-builder';

/*
 * The notifier ↔ service seam: every alert notifier package runs this suite against a local server that speaks
 * its service's real API (startNotifierService). It pins what @corekit/alerts relies on: a notification is
 * delivered and says what failed; a 5xx is retryable (with Retry-After), a 4xx terminal, a timeout and a refused
 * connection retryable; the configured secret appears in no outcome, target label or log record.
 */

/** A notification as @corekit/alerts sends it: two alerts, one Unhealthy dependency, one Degraded. */
export function sampleNotification(status: 'firing' | 'resolved' = 'firing'): AlertNotification {
  const resolvedAtUtc = status === 'resolved' ? '2026-12-01T10:07:00.000Z' : null;
  return {
    notificationId: `inc-conformance.r${status === 'firing' ? 1 : 2}`,
    incidentId: 'inc-conformance',
    revision: status === 'firing' ? 1 : 2,
    status,
    severity: 'unhealthy',
    service: 'orders-service',
    title: `[${status.toUpperCase()}] orders-service: 2 alerts (unhealthy)`,
    startedAtUtc: '2026-12-01T10:00:00.000Z',
    resolvedAtUtc,
    alerts: [
      {
        alertId: 'dependency:inventory-api',
        ruleId: 'dependency',
        dependencyId: 'inventory-api',
        severity: 'unhealthy',
        status,
        description: 'Inventory API is Unhealthy: GET /inventory/healthz answered 503 (3 checks in a row)',
        startedAtUtc: '2026-12-01T10:00:00.000Z',
        resolvedAtUtc,
      },
      {
        alertId: 'dependency:pricing-api',
        ruleId: 'dependency',
        dependencyId: 'pricing-api',
        severity: 'degraded',
        status,
        description: 'Pricing API is Degraded (3 checks in a row)',
        startedAtUtc: '2026-12-01T10:00:01.000Z',
        resolvedAtUtc,
      },
    ],
    links: [{ label: 'Incident', url: 'http://127.0.0.1:3000/engine/alert-incidents/inc-conformance' }],
  };
}

export interface NotifierConformanceOptions {
  /** Section key of the kind (`Webhook`): the describe block's name. */
  readonly kind: string;
  /** The package's `add<Kind>Notifier`; called with a test builder and `{ Targets: [target] }`. */
  readonly add: (builder: never, options: never) => unknown;
  /** Starts the local server speaking the service's API. */
  readonly startService: () => Promise<NotifierService>;
  /** Target fields pointing at `url` (a service URL or a refused one); Id and TimeoutSeconds are set here. */
  readonly target: (url: string) => Record<string, unknown>;
  /** The secret of `target(...)` (signing key, routing key, the webhook URL's token): it must leak nowhere. */
  readonly secret: string;
  /** Checks the request the service accepted for `notification`: its format names every alert and severity. */
  readonly verify: (request: RecordedHttpRequest, notification: AlertNotification) => void;
  /**
   * How the service's injected faults reach the notifier when its protocol is not HTTP (an SMTP relay answers
   * `failNext(500)` with a 451 reply, `failNext(400)` with a 550): the response code the outcome carries for an
   * injected status, and whether the protocol can say when to retry (HTTP `Retry-After`). Default: HTTP, the
   * status itself, with Retry-After.
   */
  readonly faults?: NotifierFaultProtocol;
}

/** See `NotifierConformanceOptions.faults`. */
export interface NotifierFaultProtocol {
  readonly responseCode: (injectedStatus: number) => number | null;
  readonly retryAfter: boolean;
}

const httpFaults: NotifierFaultProtocol = { responseCode: (status) => status, retryAfter: true };

function notifierFor(options: NotifierConformanceOptions, url: string, timeoutSeconds = 5) {
  const { builder, logger } = createTestEngineBuilder();
  const target = { Id: 'conformance', TimeoutSeconds: timeoutSeconds, ...options.target(url) };
  (options.add as (builder: unknown, options: unknown) => unknown)(builder, { Targets: [target] });
  // What a careless pack might do: log its whole section. The engine's redactor must hide the secret.
  builder.logger.log({
    level: 'debug',
    eventId: 9000,
    category: 'conformance',
    message: 'notifier target',
    data: { target },
  });
  const notifier = builder.resolve(notifierRegistryKey)?.get('conformance') as Notifier;
  return { notifier, logger };
}

/** Registers the conformance tests of one notifier kind (call at the top level of a test file). */
export function notifierConformanceSuite(options: NotifierConformanceOptions): void {
  describe(`${options.kind} notifier conformance`, () => {
    let service: NotifierService;
    const outcomes: NotifierOutcome[] = [];
    beforeAll(async () => {
      service = await options.startService();
    });
    afterAll(async () => {
      await service.close();
    });
    const send = async (notification: AlertNotification, timeoutSeconds?: number, url = service.url) => {
      const { notifier, logger } = notifierFor(options, url, timeoutSeconds);
      const outcome = await notifier.send(notification);
      outcomes.push(outcome);
      return { outcome, notifier, logger };
    };

    it('delivers a firing notification in the service format, naming every alert and its severity', async () => {
      const notification = sampleNotification('firing');
      const before = service.accepted.length;
      const { outcome } = await send(notification);
      expect(outcome).toMatchObject({ outcome: 'delivered' });
      expect(service.accepted).toHaveLength(before + 1);
      options.verify(service.accepted[service.accepted.length - 1], notification);
    });

    it('delivers the resolved notification of the same incident', async () => {
      const notification = sampleNotification('resolved');
      const { outcome } = await send(notification);
      expect(outcome).toMatchObject({ outcome: 'delivered' });
      options.verify(service.accepted[service.accepted.length - 1], notification);
    });

    const faults = options.faults ?? httpFaults;

    it('classifies a 500 as retryable and keeps the Retry-After of a 503', async () => {
      service.failNext(500);
      expect((await send(sampleNotification())).outcome).toMatchObject({
        outcome: 'retryable',
        responseCode: faults.responseCode(500),
      });
      service.failNext(503, 1, { 'retry-after': '7' });
      expect((await send(sampleNotification())).outcome).toMatchObject({
        outcome: 'retryable',
        responseCode: faults.responseCode(503),
        ...(faults.retryAfter ? { retryAfterMs: 7000 } : {}),
      });
      service.failNext(429);
      expect((await send(sampleNotification())).outcome).toMatchObject({
        outcome: 'retryable',
        responseCode: faults.responseCode(429),
      });
    });

    it('classifies a 4xx as terminal', async () => {
      service.failNext(400);
      expect((await send(sampleNotification())).outcome).toMatchObject({
        outcome: 'terminal',
        responseCode: faults.responseCode(400),
      });
      service.failNext(404);
      expect((await send(sampleNotification())).outcome).toMatchObject({
        outcome: 'terminal',
        responseCode: faults.responseCode(404),
      });
    });

    it('abandons an attempt the service never answers at the timeout, as retryable', async () => {
      service.hang();
      try {
        const { outcome } = await send(sampleNotification(), 1);
        expect(outcome).toMatchObject({ outcome: 'retryable', responseCode: null });
        expect((outcome as { reason: string }).reason).toMatch(/timeout/);
      } finally {
        service.answerAgain();
      }
    });

    it('classifies a refused connection as retryable', async () => {
      const port = await refusedPort();
      const refusedUrl = `http://127.0.0.1:${port}`;
      const { outcome } = await send(sampleNotification(), 2, refusedUrl);
      expect(outcome).toMatchObject({ outcome: 'retryable', responseCode: null });
    });

    it('never shows the secret: outcomes, the target label and log records', async () => {
      service.failNext(500);
      const failed = await send(sampleNotification());
      const delivered = await send(sampleNotification());
      expect(delivered.outcome.outcome).toBe('delivered');
      for (const { notifier, logger } of [failed, delivered]) {
        expect(notifier.target).not.toContain(options.secret);
        expect(logger.text()).not.toContain(options.secret);
        expect(logger.text()).toContain('***');
      }
      for (const outcome of outcomes) expect(JSON.stringify(outcome)).not.toContain(options.secret);
    });
  });
}
