import {
  defineExtensionKey,
  defineOperation,
  storePostureOf,
  type EngineBuilder,
  type JobHandle,
  type RuntimeState,
} from '@corekit/abstractions';
import { DispatchStateBook } from './dispatch-states';
import { openSharedEventingStates } from './shared-eventing-states';
import { eventingCatalogs } from './eventing-catalogs';
import { eventingEventIdNames, eventingEventIds } from './eventing-event-ids';
import {
  eventPublicationRequestSchema,
  eventPublicationResultSchema,
  type EventDispatchRuntime,
} from './eventing-model';
import { eventingOptionsSchema, type EventingOptions, type EventingOptionsInput } from './eventing-options';
import { eventingRegistry } from './eventing-registry';
import { eventingErrorCodes, publicationRoute } from './eventing-constants';
import { PublicationService } from './publication-service';
import { eventingSurfaces } from './eventing-surfaces';
import { EventingRun } from './eventing-run';
import { KeyedOutboxStore, type OutboxRecord } from './keyed-outbox-store';
import { MemoryOutboxStore } from './memory-outbox-store';
import { destinationOn, MessagingTelemetry } from './messaging-telemetry';
import { OutboxDispatchLoop, type DispatchPassResult } from './outbox-dispatcher';
import { eventDispatcherKey, outboxStoreKey, type EventDispatcher, type OutboxStore } from './outbox-store';
import { providerDispatcher, subscriptionReadiness } from './subscription-readiness';
import { SubscriptionRunner, type CompletedExecution } from './subscription-runner';

/** What `addEventing` returns: the bound options and the dispatch job (null without the outbox lane). */
export interface EventingRegistration {
  readonly options: EventingOptions;
  /** The dispatch job; `trigger()` runs one pass now (tests, operators). */
  readonly dispatchJob: JobHandle<DispatchPassResult> | null;
}

/** Resolves to the running eventing pack (for companion packages and tests). */
export const eventingRegistrationKey = defineExtensionKey<EventingRegistration>(
  '@corekit/eventing/registration',
  'the eventing pack registration: bound options and dispatch job',
);

const emptyPass: DispatchPassResult = {
  claimed: 0,
  succeeded: 0,
  retryScheduled: 0,
  failed: 0,
  claimLost: 0,
  released: 0,
};

/**
 * Registers the eventing pack (section `Engine:Eventing`): the publication operation, in-process subscription
 * execution, the optional outbox lane with its dispatch job, the four eventing catalogs, the technology
 * surfaces and the event ids 3220-3239. Modules declare channels, subscriptions and publishers with
 * `declareEventing`; unknown references fail the build. Calling it twice is refused.
 */
export function addEventing(builder: EngineBuilder, options?: EventingOptionsInput): EventingRegistration {
  builder.claimRegistration({ packageName: '@corekit/eventing', entry: 'addEventing' });
  builder.declarePack({ packageName: '@corekit/eventing', specificationVersion: 1 });
  const settings = builder.configuration.bind('Engine:Eventing', eventingOptionsSchema, options);
  const registry = eventingRegistry(builder);
  builder.addEventIds({
    component: '@corekit/eventing',
    ranges: [[3220, 3239]],
    names: eventingEventIdNames,
  });

  /** The current engine run: replaced on every start, ended by `stopping` (an aborted run is never reused). */
  let run = new EventingRun();
  const ledger = builder.openStore<CompletedExecution>('eventing-idempotency', {
    maxEntries: 100_000,
    description: 'completed subscription executions (subscriptionId|publicationId), the idempotency ledger',
  });
  const runner = new SubscriptionRunner(settings, registry.executors, ledger);
  const writers = PublicationService.writersOf(builder);
  const messaging = new MessagingTelemetry(writers);
  const publications = new PublicationService(settings, registry, runner, writers, {
    outbox: (message) =>
      destinationOn(dispatcher ?? builder.resolve(eventDispatcherKey) ?? inProcessDispatcher, message),
    inProcess: (message) => destinationOn(inProcessDispatcher, message),
  });
  const book = new DispatchStateBook();
  const sharedStates = openSharedEventingStates(builder, settings);
  const outboxSettings = settings.Outbox;
  let outbox: OutboxStore | null = null;
  let dispatcher: EventDispatcher | null = null;
  let loop: OutboxDispatchLoop | null = null;

  /** The default dispatcher: delivers staged messages to this process's subscriptions. */
  const inProcessDispatcher: EventDispatcher = {
    id: 'in-process-subscriptions',
    executionOwnership: 'core-managed',
    messagingSystem: 'corekit',
    destinationOf: (message) => message.channelId,
    async dispatch(message, signal) {
      const matching = registry.matching(message.channelId, message.eventType);
      // Consumed from the outbox: the process span continues the trace of the message's create span.
      const results = await messaging.process(message, destinationOn(inProcessDispatcher, message), () =>
        runner.run(matching, message, signal),
      );
      // Not completed, not failed: the loop gives the message back for the next start.
      if (results.some((result) => result.outcome === 'interrupted')) {
        throw new Error('the engine stopped before every subscription completed');
      }
      const outcome = await publications.completeRun(message, matching.length, results);
      if (outcome === 'failed') {
        const failed = results
          .filter((result) => result.outcome === 'failed')
          .map((result) => result.subscriptionId);
        throw new Error(`subscription(s) failed: ${failed.join(', ')}`);
      }
    },
  };

  let dispatchJob: JobHandle<DispatchPassResult> | null = null;
  if (outboxSettings.Enabled) {
    dispatchJob = builder.addJob<DispatchPassResult>({
      id: 'eventing.dispatch',
      displayName: `Outbox dispatch (${outboxSettings.OutboxId})`,
      intervalMs: outboxSettings.DispatchIntervalMilliseconds,
      runOnStartup: true,
      owner: '@corekit/eventing',
      run: async (context) => {
        const current = run;
        if (!loop || current.stopping) return emptyPass;
        try {
          return await current.track(loop.pass(context.signal));
        } catch (error) {
          builder.logger.log({
            level: 'warn',
            eventId: eventingEventIds.dispatchPassFailed,
            category: 'eventing',
            message: `A dispatch pass over outbox ${outboxSettings.OutboxId} failed; the next pass retries`,
            error: error instanceof Error ? error.message.slice(0, 300) : String(error),
          });
          throw error;
        }
      },
    });
    if (outboxSettings.SourceModuleId) {
      builder.addCatalogEntries('outboxes', null, [
        {
          id: outboxSettings.OutboxId,
          displayName: `Eventing outbox ${outboxSettings.OutboxId}`,
          description:
            'Publications staged by POST /engine/event-publications, sent by the eventing dispatch job.',
          sourceModuleId: outboxSettings.SourceModuleId,
          provider: 'eventing',
          mode: 'transactional-outbox',
          channelIds: [],
          tags: ['eventing'],
          metadata: { dispatchRuntimeId: outboxSettings.DispatchRuntimeId },
        },
      ]);
    }
  }

  let engine: { readonly state: RuntimeState } | null = null;
  /** True while a started engine runs this pack: only then does a bound subscription actually execute. */
  const running = () => engine?.state === 'Started' && !run.stopping;
  // Read from what is installed when asked (the dispatcher and store provider are final after build()).
  const brokerDispatcher = () => providerDispatcher(settings, builder.resolve(eventDispatcherKey));
  const readiness = (live = running()) => {
    const broker = brokerDispatcher();
    return [...registry.subscriptions.values()].map((subscription) =>
      subscriptionReadiness(subscription, settings, runner, live, broker),
    );
  };
  const dispatchRuntimes = (): EventDispatchRuntime[] =>
    outboxSettings.Enabled
      ? [
          {
            id: outboxSettings.DispatchRuntimeId,
            displayName: `Eventing dispatch (${outboxSettings.OutboxId})`,
            description: 'The eventing dispatch job: claims staged messages under a lease and sends them.',
            ownership: {
              executionOwnership: (dispatcher ?? brokerDispatcher() ?? inProcessDispatcher)
                .executionOwnership,
              dispatcherId: (dispatcher ?? brokerDispatcher() ?? inProcessDispatcher).id,
              outboxProvider: outbox?.provider ?? 'not-started',
            },
            outboxIds: [outboxSettings.OutboxId],
            summary: book.summary([outboxSettings.OutboxId]),
            scope: book.scope,
          },
        ]
      : [];
  for (const catalog of eventingCatalogs({
    dispatchRuntimes,
    dispatchStates: () => book.list(),
    publicationStates: () => publications.list(),
    readiness,
  })) {
    builder.addCatalog(catalog);
  }
  builder.addTechnologySurfaces(() =>
    eventingSurfaces(registry, settings, readiness(), publications.list(), {
      ledger: storePostureOf(builder.storeTraits()),
      dispatcher: brokerDispatcher(),
      publicationStateScope: publications.book.scope,
      publicationStateFreshness: publications.book.freshness(),
    }),
  );

  builder.addOperation(
    defineOperation({
      id: 'eventing.publish',
      method: 'POST',
      path: publicationRoute,
      summary: 'Publish an event: run matching subscriptions, or stage it in the outbox',
      description:
        'Triggers the route publisher. Without the outbox lane the matching in-process subscriptions run before the answer; with it, accepted means staged for later dispatch.',
      tags: ['eventing'],
      body: eventPublicationRequestSchema,
      result: eventPublicationResultSchema,
      errors: {
        'invalid-input':
          'the body is not a publication request, or the event type is not declared on the channel',
        'not-active': `publication is disabled (${eventingErrorCodes.publicationNotActive})`,
        'not-found': `the channel is not registered (${eventingErrorCodes.channelNotFound})`,
        'too-large': `the payload exceeds MaxPayloadBytes (${eventingErrorCodes.payloadTooLarge})`,
        unavailable: `the outbox cannot stage now (${eventingErrorCodes.outboxFull})`,
      },
      owner: '@corekit/eventing',
      handler: ({ body }) => publications.publish(body),
    }),
  );

  builder.addLifecycleHooks({
    id: 'eventing',
    build(context) {
      const hostedExecutionIds = new Set(
        context.entries('hosted-executions').map((entry) => (entry as { id: string }).id),
      );
      return registry.validate(context.moduleIds, hostedExecutionIds);
    },
    attach(attached) {
      engine = attached;
    },
    async started(context) {
      if (builder.storeTraits().shared) {
        publications.book.useSharedStore(sharedStates.publications.store, sharedStates.publications.mirror);
        book.useSharedStore(sharedStates.dispatches.mirror);
        await sharedStates.start();
      }
      run = new EventingRun();
      runner.bind(run);
      if (outboxSettings.Enabled) {
        outbox ??= context.resolve(outboxStoreKey) ?? embeddedOutbox(builder, outboxSettings);
        dispatcher = context.resolve(eventDispatcherKey) ?? inProcessDispatcher;
        publications.useOutbox(outbox);
        const broker = dispatcher === inProcessDispatcher ? null : dispatcher;
        loop = new OutboxDispatchLoop(
          builder.instanceId,
          outboxSettings,
          outbox,
          dispatcher,
          book,
          writers,
          run,
          broker &&
            ((messages, outcome, error) => publications.dispatched(messages, outcome, error, broker.id)),
        );
      }
      const entries = readiness(true);
      builder.story.record({
        kind: 'eventing.readiness',
        subjectId: null,
        transition: 'bound',
        message: `Eventing: ${entries.filter((entry) => entry.readinessState === 'runtime-bound').length} of ${entries.length} subscription(s) runtime-bound, lane ${publications.lane}`,
        details: Object.fromEntries(entries.map((entry) => [entry.subscriptionId, entry.readinessState])),
      });
      builder.logger.log({
        level: 'info',
        eventId: eventingEventIds.registered,
        category: 'eventing',
        message: `Eventing started: ${registry.channels.size} channel(s), ${entries.length} subscription(s), lane ${publications.lane}`,
      });
    },
    /**
     * Ends the run: no new batch or subscription attempt from now on, in-flight work finishes (or is aborted
     * when the engine's signal aborts, and then gives its message back), then the dispatcher closes.
     */
    async stopping(context) {
      sharedStates.stop();
      await run.stop(context.signal);
      await dispatcher?.close?.();
    },
  });

  const registration: EventingRegistration = { options: settings, dispatchJob };
  builder.provide(eventingRegistrationKey, registration);
  return registration;
}

/**
 * The outbox used when no package provided one: with stores that are neither durable nor shared (the default
 * Memory provider) the memory outbox, built for one process; otherwise (File, or a shared provider) the
 * outbox on the engine store `eventing-outbox`, which survives a restart and is shared as the stores are.
 * The keyed outbox keeps two records per pending message and one per dispatched message for its retention
 * window, so its store is bounded at three times `MaxStagedMessages`.
 */
function embeddedOutbox(builder: EngineBuilder, settings: EventingOptions['Outbox']): OutboxStore {
  const traits = builder.storeTraits();
  if (!traits.durable && !traits.shared) {
    return new MemoryOutboxStore({ maxMessages: settings.MaxStagedMessages });
  }
  return new KeyedOutboxStore(
    builder.openStore<OutboxRecord>('eventing-outbox', {
      maxEntries: settings.MaxStagedMessages * 3,
      description: 'the embedded eventing outbox',
    }),
  );
}
