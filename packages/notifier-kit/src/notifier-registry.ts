import { CoreError, defineExtensionKey, type EngineBuilder } from '@corekit/abstractions';
import type { AlertNotification, AlertSeverity } from './notification';
import type { NotifierOutcome } from './notifier-outcome';

/** A configured notifier target, ready to send: what `@corekit/alerts` delivers notifications with. */
export interface Notifier {
  /** The target's `Id`, unique among every notifier of the engine (the delivery log names it). */
  readonly id: string;
  /** The section key of its kind (`Webhook`, `Slack`, `PagerDuty`...). */
  readonly kind: string;
  readonly displayName: string;
  /** The package that defined the kind (`@corekit/notifier-webhook`). */
  readonly packageName: string;
  /** A safe label of where it sends (`hooks.example.com`), never a secret part of the URL. */
  readonly target: string;
  /** Notifications whose severity is below this are not sent to this target. */
  readonly minimumSeverity: AlertSeverity;
  /** False: resolved notifications are not sent to this target. */
  readonly sendResolved: boolean;
  /** How long one attempt may take before it is abandoned (a retryable timeout). */
  readonly timeoutMs: number;
  /**
   * Makes one attempt. Never throws: a failure is a retryable or terminal outcome, and the outcome is scrubbed of
   * the target's secrets.
   */
  send(notification: AlertNotification, signal?: AbortSignal): Promise<NotifierOutcome>;
}

/** Every notifier target of an engine; notifier packages add to it, `@corekit/alerts` delivers with it. */
export interface NotifierRegistry {
  add(notifier: Notifier): void;
  list(): readonly Notifier[];
  get(id: string): Notifier | undefined;
  /** Marks the registry as read by a deliverer (`addAlerts`); without one the build fails. */
  consume(consumer: string): void;
}

export const notifierRegistryKey = defineExtensionKey<NotifierRegistry>(
  '@corekit/notifier-kit/notifiers',
  'the alert notifier targets registered by notifier packages (add<Kind>Notifier)',
);

class Registry implements NotifierRegistry {
  private readonly notifiers = new Map<string, Notifier>();
  consumer: string | null = null;

  add(notifier: Notifier): void {
    const existing = this.notifiers.get(notifier.id);
    if (existing) {
      throw new CoreError(
        'NOTIFIER_ID_DUPLICATE',
        `Notifier Id "${notifier.id}" of ${notifier.kind} is already used by a ${existing.kind} notifier; every notifier target needs its own Id`,
      );
    }
    this.notifiers.set(notifier.id, notifier);
  }
  list(): readonly Notifier[] {
    return [...this.notifiers.values()];
  }
  get(id: string): Notifier | undefined {
    return this.notifiers.get(id);
  }
  consume(consumer: string): void {
    this.consumer = consumer;
  }
}

/**
 * The builder's notifier registry, made and provided on first use (by a notifier package or by `addAlerts`,
 * whichever is called first). The build fails when notifiers were registered and nothing delivers them.
 */
export function notifierRegistryOf(builder: EngineBuilder): NotifierRegistry {
  const existing = builder.resolve(notifierRegistryKey);
  if (existing) return existing;
  const registry = new Registry();
  builder.provide(notifierRegistryKey, registry);
  builder.addLifecycleHooks({
    id: 'notifier-kit',
    build: () =>
      registry.consumer === null && registry.list().length > 0
        ? [
            `notifier targets ${registry
              .list()
              .map((notifier) => `"${notifier.id}"`)
              .join(
                ', ',
              )} are registered but nothing delivers them: call addAlerts(builder) from @corekit/alerts`,
          ]
        : [],
  });
  return registry;
}
