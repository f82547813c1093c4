import type { Engine } from '@corekit/abstractions';
import { addEventing, declareEventing } from '@corekit/eventing';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
} from '@corekit/testing/pack-lifecycle-conformance';
import { addPostgresOutbox } from '../add-postgres-outbox';

const subscriptionId = 'lifecycle-subscription';

/** One outbox per test: the id comes from the test's folder, so tests sharing the table never meet. */
const outboxIdOf = (environment: PackLifecycleEnvironment) =>
  `lifecycle-${environment.directory
    .replace(/[^a-z0-9]/gi, '')
    .slice(-12)
    .toLowerCase()}`;

/**
 * The eventing pack on the PostgreSQL outbox (table `table` of `url`) for the pack lifecycle conformance
 * suite: one channel, one subscription whose executor is `environment.perform`. Every engine, File or not,
 * stages into PostgreSQL: staged work is durable in every step.
 */
export function outboxLifecycleAdapter(
  url: string,
  table: string,
  packageDirectory?: string,
): PackLifecycleAdapter {
  return {
    pack: 'eventing (PostgreSQL outbox)',
    staged: true,
    processFixture: packageDirectory ? { packageDirectory, fixture: 'outbox-lifecycle.ts' } : undefined,
    register(builder, environment) {
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
      addEventing(builder, {
        Outbox: {
          Enabled: true,
          OutboxId: outboxIdOf(environment),
          DispatchIntervalMilliseconds: 20,
          RetryDelayMilliseconds: 0,
          LeaseSeconds: 1,
        },
      });
      addPostgresOutbox(builder, { ConnectionString: url, TableName: table });
    },
    async work(engine, id) {
      await engine.operations.invoke('eventing.publish', {
        body: { id, channelId: 'lifecycle', eventType: 'work-requested', payload: { id } },
      });
    },
    async claims(engine, environment) {
      const entry = engine.catalog('event-subscription-readiness')?.find(subscriptionId) as
        { readinessState: string; metadata: Record<string, unknown> } | undefined;
      const dispatch = engine.catalog('event-dispatches')?.find(outboxIdOf(environment)) as
        Record<string, unknown> | undefined;
      return {
        runtimeBound: entry?.readinessState === 'runtime-bound',
        succeeded: entry?.metadata['reported.succeededCount'],
        dispatchFailed: dispatch?.failedCount ?? 0,
        terminalFailure: dispatch?.terminalFailure ?? false,
      };
    },
    async facts(engine: Engine, environment) {
      const mine = environment.entries().filter((entry) => entry.engine === environment.engine);
      return {
        runtimeBound: engine.state === 'Started',
        succeeded: mine.filter((entry) => entry.event === 'done').length,
        dispatchFailed: mine.filter((entry) => entry.event === 'failed').length,
        terminalFailure: false,
      };
    },
  };
}
