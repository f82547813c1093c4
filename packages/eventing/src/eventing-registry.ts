import { defineExtensionKey, type EngineBuilder } from '@corekit/abstractions';
import {
  eventChannelDeclarationSchema,
  eventPublisherDeclarationSchema,
  eventSubscriptionDeclarationSchema,
  type EventChannelDeclaration,
  type EventingDeclarations,
  type EventPublisherDeclaration,
  type EventSubscriptionDeclaration,
  type Owned,
  type SubscriptionExecutor,
} from './eventing-declarations';

/**
 * Everything modules declared for eventing on one builder. Invalid or dangling declarations are kept as
 * problems and reported by the pack's build hook, so the build fails with all of them at once.
 */
export class EventingRegistry {
  readonly channels = new Map<string, Owned<EventChannelDeclaration>>();
  readonly subscriptions = new Map<string, Owned<EventSubscriptionDeclaration>>();
  readonly publishers = new Map<string, Owned<EventPublisherDeclaration>>();
  readonly executors = new Map<string, SubscriptionExecutor>();
  readonly problems: string[] = [];
  private readonly declaringModules = new Set<string>();

  declare(declarations: EventingDeclarations): void {
    const { moduleId } = declarations;
    this.declaringModules.add(moduleId);
    const collect = <T>(
      kind: string,
      map: Map<string, Owned<T>>,
      parse: (value: unknown) => T,
      values: readonly unknown[],
    ) => {
      values.forEach((value, index) => {
        try {
          const parsed = parse(value) as T & { id: string };
          if (map.has(parsed.id)) this.problems.push(`${kind} "${parsed.id}" is declared twice`);
          else map.set(parsed.id, { ...parsed, sourceModuleId: moduleId });
        } catch (error) {
          this.problems.push(
            `${kind} ${index} of module "${moduleId}" is invalid: ${(error as Error).message}`,
          );
        }
      });
    };
    collect(
      'channel',
      this.channels,
      (value) => eventChannelDeclarationSchema.parse(value),
      declarations.channels ?? [],
    );
    collect(
      'subscription',
      this.subscriptions,
      (value) => {
        const { execute: _execute, ...rest } = value as Record<string, unknown>;
        return eventSubscriptionDeclarationSchema.parse(rest);
      },
      declarations.subscriptions ?? [],
    );
    collect(
      'publisher',
      this.publishers,
      (value) => eventPublisherDeclarationSchema.parse(value),
      declarations.publishers ?? [],
    );
    for (const subscription of declarations.subscriptions ?? []) {
      if (subscription.execute) this.addExecutor(subscription.id, subscription.execute);
    }
  }

  addExecutor(subscriptionId: string, executor: SubscriptionExecutor): void {
    if (this.executors.has(subscriptionId)) {
      this.problems.push(`subscription "${subscriptionId}" has two executors`);
      return;
    }
    this.executors.set(subscriptionId, executor);
  }

  /** Every problem, including references to unknown modules, channels and subscriptions. */
  validate(moduleIds: ReadonlySet<string>, hostedExecutionIds: ReadonlySet<string>): string[] {
    const problems = [...this.problems];
    for (const moduleId of this.declaringModules) {
      if (!moduleIds.has(moduleId)) problems.push(`eventing declarations name unknown module "${moduleId}"`);
    }
    for (const subscription of this.subscriptions.values()) {
      if (!this.channels.has(subscription.channelId)) {
        problems.push(
          `subscription "${subscription.id}" references unknown channel "${subscription.channelId}"`,
        );
      }
      if (subscription.executionOwnership === 'hosted-execution') {
        if (!subscription.hostedExecutionId) {
          problems.push(
            `subscription "${subscription.id}" is hosted-execution owned but names no hostedExecutionId`,
          );
        } else if (!hostedExecutionIds.has(subscription.hostedExecutionId)) {
          problems.push(
            `subscription "${subscription.id}" references unknown hosted execution "${subscription.hostedExecutionId}"`,
          );
        }
      }
    }
    for (const publisher of this.publishers.values()) {
      for (const channelId of publisher.channelIds) {
        if (!this.channels.has(channelId)) {
          problems.push(`publisher "${publisher.id}" references unknown channel "${channelId}"`);
        }
      }
    }
    for (const subscriptionId of this.executors.keys()) {
      if (!this.subscriptions.has(subscriptionId)) {
        problems.push(`an executor is registered for unknown subscription "${subscriptionId}"`);
      }
    }
    return problems;
  }

  /** Subscriptions of a channel that take this event type. */
  matching(channelId: string, eventType: string): Owned<EventSubscriptionDeclaration>[] {
    return [...this.subscriptions.values()].filter(
      (subscription) =>
        subscription.channelId === channelId &&
        (subscription.eventTypes.length === 0 || subscription.eventTypes.includes(eventType)),
    );
  }
}

const eventingRegistryKey = defineExtensionKey<EventingRegistry>(
  '@corekit/eventing/registry',
  'channels, subscriptions, publishers and executors declared on this builder',
);

/** The builder's eventing registry, created on first use. */
export function eventingRegistry(builder: EngineBuilder): EventingRegistry {
  const existing = builder.resolve(eventingRegistryKey);
  if (existing) return existing;
  const registry = new EventingRegistry();
  builder.provide(eventingRegistryKey, registry);
  return registry;
}

/**
 * Declares a module's channels, subscriptions (optionally with their executor) and publishers. Unknown
 * modules, channels, subscriptions or hosted executions fail the build (`ENGINE_REGISTRATION_INVALID`).
 */
export function declareEventing(builder: EngineBuilder, declarations: EventingDeclarations): void {
  eventingRegistry(builder).declare(declarations);
}

/** Registers the executor of a declared subscription (a subscription with an executor becomes runtime-bound). */
export function addEventSubscriptionExecutor(
  builder: EngineBuilder,
  subscriptionId: string,
  executor: SubscriptionExecutor,
): void {
  eventingRegistry(builder).addExecutor(subscriptionId, executor);
}
