// The pack lifecycle conformance adapter of the broker dispatcher packages (not exported from the index).
import type { EngineBuilder } from '@corekit/abstractions';
import { addEventing, declareEventing, useEventDispatcher, type EventDispatcher } from '@corekit/eventing';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
} from '@corekit/testing/pack-lifecycle-conformance';

/** One broker dispatcher package, as the adapter drives it. */
export interface BrokerUnderTest {
  /** In test titles: `RabbitMQ`. */
  readonly name: string;
  /** The package's real dispatcher, publishing to `destination` (an exchange, a topic prefix, a topic). */
  create(builder: EngineBuilder, destination: string): EventDispatcher;
  /** Makes the broker keep what is published to `destination` from now on (binds a queue, subscribes). */
  prepare(destination: string): Promise<void>;
  /** The message ids (publication ids) the broker received on `destination` so far, duplicates included. */
  received(destination: string): Promise<readonly string[]>;
}

/** The destination of one test, from its folder: `corekit-lifecycle-<suffix>`. */
export function destinationOf(environment: PackLifecycleEnvironment): string {
  return `corekit-lifecycle-${environment.directory
    .replace(/[^a-z0-9]/gi, '')
    .slice(-16)
    .toLowerCase()}`;
}

/**
 * The broker's dispatcher, wrapped so the suite sees the dispatch as the executor: each message goes through
 * `environment.perform` (which the suite can hold in flight) before the real dispatcher publishes it. An
 * interrupted dispatch fails, and the outbox dispatches the message again after the next start.
 */
function held(real: EventDispatcher, environment: PackLifecycleEnvironment): EventDispatcher {
  return {
    id: real.id,
    executionOwnership: real.executionOwnership,
    async dispatch(message, signal) {
      await environment.perform(message.publicationId, signal);
      await real.dispatch(message, signal);
    },
    ...(real.dispatchMany
      ? {
          async dispatchMany(messages, signal) {
            for (const message of messages) await environment.perform(message.publicationId, signal);
            return real.dispatchMany!(messages, signal);
          },
        }
      : {}),
    close: () => real.close?.() ?? Promise.resolve(),
  };
}

/**
 * Eventing's outbox lane with a broker dispatcher for the pack lifecycle conformance suite: work is one
 * publication; it happened once the broker holds it (read at the broker, outside the engine). The dispatch
 * state on `/engine/event-dispatches` is compared with the journal and the broker.
 */
export function dispatcherLifecycleAdapter(
  broker: BrokerUnderTest,
  packageDirectory?: string,
  fixture?: string,
): PackLifecycleAdapter {
  const seen = new Map<string, Set<string>>();
  const observe = async (destination: string) => {
    const set = seen.get(destination) ?? new Set<string>();
    seen.set(destination, set);
    for (const id of await broker.received(destination)) set.add(id);
    return set;
  };
  return {
    pack: `eventing outbox lane with the ${broker.name} dispatcher`,
    staged: true,
    configuration: {
      Engine: {
        Eventing: {
          Outbox: {
            Enabled: true,
            DispatchIntervalMilliseconds: 20,
            RetryDelayMilliseconds: 0,
            LeaseSeconds: 1,
          },
        },
      },
    },
    processFixture: packageDirectory && fixture ? { packageDirectory, fixture } : undefined,
    register(builder, environment) {
      builder.addModule({ id: 'lifecycle', version: '1.0.0' });
      declareEventing(builder, {
        moduleId: 'lifecycle',
        channels: [{ id: 'lifecycle', eventTypes: ['work-requested'] }],
        // With a broker dispatcher the in-process executor never runs: it would record `failed`.
        subscriptions: [
          {
            id: 'lifecycle-subscription',
            channelId: 'lifecycle',
            eventTypes: [],
            execute: ({ message }) => environment.record(message.publicationId, 'failed'),
          },
        ],
        publishers: [{ id: 'lifecycle.api', channelIds: ['lifecycle'] }],
      });
      addEventing(builder);
      useEventDispatcher(builder, held(broker.create(builder, destinationOf(environment)), environment));
    },
    async work(engine, id, environment) {
      await broker.prepare(destinationOf(environment));
      await engine.operations.invoke('eventing.publish', {
        body: { id, channelId: 'lifecycle', eventType: 'work-requested', payload: { id } },
      });
    },
    async happened(_engine, id, environment) {
      return (await observe(destinationOf(environment))).has(id);
    },
    async claims(engine) {
      const dispatch = engine.catalog('event-dispatches')?.find('eventing-outbox') as
        Record<string, unknown> | undefined;
      return {
        delivered: dispatch?.succeededCount ?? 0,
        terminalFailure: dispatch?.terminalFailure ?? false,
        inProcessExecutions: 0,
      };
    },
    async facts(_engine, environment) {
      // Dispatched by this engine: performed here and held by the broker.
      const atBroker = await observe(destinationOf(environment));
      const mine = new Set(
        environment
          .entries()
          .filter((entry) => entry.event === 'done' && entry.engine === environment.engine)
          .map((entry) => entry.id),
      );
      return {
        delivered: [...mine].filter((id) => atBroker.has(id)).length,
        terminalFailure: false,
        inProcessExecutions: environment.entries().filter((entry) => entry.event === 'failed').length,
      };
    },
  };
}
