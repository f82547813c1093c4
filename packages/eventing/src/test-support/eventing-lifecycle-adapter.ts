import type { Engine } from '@corekit/abstractions';
import type { EngineBuilder } from '@corekit/abstractions';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
} from '@corekit/testing/pack-lifecycle-conformance';
import { addEventing, declareEventing } from '../index';

/** Engines of the suite: in the outbox lane the memory outbox on the Memory store, the keyed outbox on File. */
export type EventingLane = 'direct' | 'outbox';

const subscriptionId = 'lifecycle-subscription';

function readiness(engine: Engine): Record<string, unknown> | undefined {
  return engine.catalog('event-subscription-readiness')?.find(subscriptionId) as
    Record<string, unknown> | undefined;
}

/**
 * A shared store provider under test (PostgreSQL, Redis): installed in every engine, its table or key prefix
 * named after the test's folder; the keyed outbox then lives there in every step.
 */
export interface StoreProviderUnderTest {
  readonly name: string;
  install(builder: EngineBuilder, environment: PackLifecycleEnvironment): void;
}

/** The eventing pack for the pack lifecycle conformance suite: one channel, one subscription, one executor. */
export function eventingLifecycleAdapter(
  lane: EventingLane,
  packageDirectory?: string,
  stores?: StoreProviderUnderTest,
): PackLifecycleAdapter {
  const outbox = lane === 'outbox';
  return {
    pack: stores
      ? `eventing (outbox lane: keyed outbox on ${stores.name} stores)`
      : outbox
        ? 'eventing (outbox lane: memory outbox, keyed outbox on File)'
        : 'eventing (direct lane)',
    staged: outbox,
    // The provider is configured in code by `install`: nothing of the File store.
    durableStores: stores ? () => ({}) : undefined,
    configuration: {
      Engine: {
        Eventing: outbox
          ? {
              Outbox: {
                Enabled: true,
                DispatchIntervalMilliseconds: 20,
                RetryDelayMilliseconds: 0,
                LeaseSeconds: 1,
              },
            }
          : {},
      },
    },
    processFixture:
      outbox && packageDirectory ? { packageDirectory, fixture: 'eventing-lifecycle.ts' } : undefined,
    register(builder, environment) {
      stores?.install(builder, environment);
      builder.addModule({ id: 'lifecycle', version: '1.0.0' });
      declareEventing(builder, {
        moduleId: 'lifecycle',
        channels: [{ id: 'lifecycle', eventTypes: ['work-requested'] }],
        subscriptions: [
          {
            id: subscriptionId,
            channelId: 'lifecycle',
            eventTypes: [],
            execute: ({ message, signal }) => environment.perform(message.publicationId, signal),
          },
        ],
        publishers: [{ id: 'lifecycle.api', channelIds: ['lifecycle'] }],
      });
      addEventing(builder);
    },
    async work(engine, id) {
      const published = engine.operations.invoke('eventing.publish', {
        body: { id, channelId: 'lifecycle', eventType: 'work-requested', payload: { id } },
      });
      // The direct lane answers after the subscription ran: a held executor must not hold the caller.
      if (outbox) await published;
      else void published.catch(() => undefined);
    },
    async claims(engine) {
      const entry = readiness(engine);
      const metadata = (entry?.metadata ?? {}) as Record<string, unknown>;
      const dispatch = engine.catalog('event-dispatches')?.find('eventing-outbox') as
        Record<string, unknown> | undefined;
      return {
        runtimeBound: entry?.readinessState === 'runtime-bound',
        succeeded: metadata['reported.succeededCount'],
        failed: metadata['reported.failedCount'],
        dispatchFailed: dispatch?.failedCount ?? 0,
        terminalFailure: dispatch?.terminalFailure ?? false,
      };
    },
    async facts(engine, environment: PackLifecycleEnvironment) {
      const mine = environment.entries().filter((entry) => entry.engine === environment.engine);
      const failed = mine.filter((entry) => entry.event === 'failed').length;
      return {
        // The executor can run only in a started engine (and then it does: the steps prove it with work).
        runtimeBound: engine.state === 'Started',
        succeeded: mine.filter((entry) => entry.event === 'done').length,
        failed,
        dispatchFailed: outbox ? failed : 0,
        terminalFailure: false,
      };
    },
  };
}
