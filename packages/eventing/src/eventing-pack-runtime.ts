import {
  storePostureOf,
  type BuildHookContext,
  type EngineBuilder,
  type LifecycleHooks,
  type RuntimeHookContext,
  type RuntimeState,
} from '@corekit/abstractions';
import { DispatchStateBook } from './dispatch-states';
import type { EventingCatalogSources } from './eventing-catalogs';
import { eventingEventIds } from './eventing-event-ids';
import type { EventDispatchRuntime } from './eventing-model';
import type { EventingOptions } from './eventing-options';
import type { EventingRegistry } from './eventing-registry';
import { EventingRun } from './eventing-run';
import { eventingSurfaces } from './eventing-surfaces';
import { KeyedOutboxStore, type OutboxRecord } from './keyed-outbox-store';
import { MemoryOutboxStore } from './memory-outbox-store';
import { destinationOn, MessagingTelemetry } from './messaging-telemetry';
import { OutboxDispatchLoop, type DispatchPassResult } from './outbox-dispatcher';
import { eventDispatcherKey, outboxStoreKey, type EventDispatcher, type OutboxStore } from './outbox-store';
import { PublicationService } from './publication-service';
import { openSharedEventingStates, type SharedEventingStates } from './shared-eventing-states';
import { providerDispatcher, subscriptionReadiness } from './subscription-readiness';
import { SubscriptionRunner, type CompletedExecution } from './subscription-runner';

/** The answer of a dispatch pass that did nothing (no loop yet, or the run is stopping). */
export const emptyDispatchPass: DispatchPassResult = {
  claimed: 0,
  succeeded: 0,
  retryScheduled: 0,
  failed: 0,
  claimLost: 0,
  released: 0,
};

/**
 * The eventing pack's state and lifecycle on one builder: the subscription runner and its idempotency ledger,
 * publications, the dispatch-state book, the outbox lane (store, dispatcher and dispatch loop, chosen at start
 * from what is installed), and the current engine run, replaced on every start and ended by `stopping` (an
 * aborted run is never reused).
 */
export class EventingPackRuntime {
  readonly publications: PublicationService;
  private run = new EventingRun();
  private readonly runner: SubscriptionRunner;
  private readonly writers: ReturnType<typeof PublicationService.writersOf>;
  private readonly messaging: MessagingTelemetry;
  private readonly book = new DispatchStateBook();
  private readonly sharedStates: SharedEventingStates;
  private outbox: OutboxStore | null = null;
  private dispatcher: EventDispatcher | null = null;
  private loop: OutboxDispatchLoop | null = null;
  private engine: { readonly state: RuntimeState } | null = null;

  constructor(
    private readonly builder: EngineBuilder,
    private readonly settings: EventingOptions,
    private readonly registry: EventingRegistry,
  ) {
    const ledger = builder.openStore<CompletedExecution>('eventing-idempotency', {
      maxEntries: 100_000,
      description: 'completed subscription executions (subscriptionId|publicationId), the idempotency ledger',
    });
    this.runner = new SubscriptionRunner(settings, registry.executors, ledger);
    this.writers = PublicationService.writersOf(builder);
    this.messaging = new MessagingTelemetry(this.writers);
    this.publications = new PublicationService(settings, registry, this.runner, this.writers, {
      outbox: (message) =>
        destinationOn(
          this.dispatcher ?? builder.resolve(eventDispatcherKey) ?? this.inProcessDispatcher,
          message,
        ),
      inProcess: (message) => destinationOn(this.inProcessDispatcher, message),
    });
    this.sharedStates = openSharedEventingStates(builder, settings);
  }

  /** The default dispatcher: delivers staged messages to this process's subscriptions. */
  readonly inProcessDispatcher: EventDispatcher = {
    id: 'in-process-subscriptions',
    executionOwnership: 'core-managed',
    messagingSystem: 'corekit',
    destinationOf: (message) => message.channelId,
    dispatch: async (message, signal) => {
      const matching = this.registry.matching(message.channelId, message.eventType);
      // Consumed from the outbox: the process span continues the trace of the message's create span.
      const results = await this.messaging.process(
        message,
        destinationOn(this.inProcessDispatcher, message),
        () => this.runner.run(matching, message, signal),
      );
      // Not completed, not failed: the loop gives the message back for the next start.
      if (results.some((result) => result.outcome === 'interrupted')) {
        throw new Error('the engine stopped before every subscription completed');
      }
      const outcome = await this.publications.completeRun(message, matching.length, results);
      if (outcome === 'failed') {
        const failed = results
          .filter((result) => result.outcome === 'failed')
          .map((result) => result.subscriptionId);
        throw new Error(`subscription(s) failed: ${failed.join(', ')}`);
      }
    },
  };

  /** The publication operation's handler. */
  publish(request: Parameters<PublicationService['publish']>[0]) {
    return this.publications.publish(request);
  }

  /** One pass of the dispatch job over the outbox; a failed pass is logged and thrown (the next pass retries). */
  async dispatchPass(signal: AbortSignal): Promise<DispatchPassResult> {
    const current = this.run;
    if (!this.loop || current.stopping) return emptyDispatchPass;
    try {
      return await current.track(this.loop.pass(signal));
    } catch (error) {
      this.builder.logger.log({
        level: 'warn',
        eventId: eventingEventIds.dispatchPassFailed,
        category: 'eventing',
        message: `A dispatch pass over outbox ${this.settings.Outbox.OutboxId} failed; the next pass retries`,
        error: error instanceof Error ? error.message.slice(0, 300) : String(error),
      });
      throw error;
    }
  }

  /** What the eventing catalogs list. */
  catalogSources(): EventingCatalogSources {
    return {
      dispatchRuntimes: () => this.dispatchRuntimes(),
      dispatchStates: () => this.book.list(),
      publicationStates: () => this.publications.list(),
      readiness: () => this.readiness(),
    };
  }

  /** The technology surfaces of the pack, as they are now. */
  surfaces() {
    return eventingSurfaces(this.registry, this.settings, this.readiness(), this.publications.list(), {
      ledger: storePostureOf(this.builder.storeTraits()),
      dispatcher: this.brokerDispatcher(),
      publicationStateScope: this.publications.book.scope,
      publicationStateFreshness: this.publications.book.freshness(),
    });
  }

  /** The pack's lifecycle hooks (`eventing`). */
  lifecycleHooks(): LifecycleHooks {
    return {
      id: 'eventing',
      build: (context) => this.validate(context),
      attach: (attached) => {
        this.engine = attached;
      },
      started: (context) => this.started(context),
      stopping: (context) => this.stopping(context),
    };
  }

  /** True while a started engine runs this pack: only then does a bound subscription actually execute. */
  private running(): boolean {
    return this.engine?.state === 'Started' && !this.run.stopping;
  }

  // Read from what is installed when asked (the dispatcher and store provider are final after build()).
  private brokerDispatcher() {
    return providerDispatcher(this.settings, this.builder.resolve(eventDispatcherKey));
  }

  private readiness(live = this.running()) {
    const broker = this.brokerDispatcher();
    return [...this.registry.subscriptions.values()].map((subscription) =>
      subscriptionReadiness(subscription, this.settings, this.runner, live, broker),
    );
  }

  private dispatchRuntimes(): EventDispatchRuntime[] {
    const outboxSettings = this.settings.Outbox;
    if (!outboxSettings.Enabled) return [];
    const effective = this.dispatcher ?? this.brokerDispatcher() ?? this.inProcessDispatcher;
    return [
      {
        id: outboxSettings.DispatchRuntimeId,
        displayName: `Eventing dispatch (${outboxSettings.OutboxId})`,
        description: 'The eventing dispatch job: claims staged messages under a lease and sends them.',
        ownership: {
          executionOwnership: effective.executionOwnership,
          dispatcherId: effective.id,
          outboxProvider: this.outbox?.provider ?? 'not-started',
        },
        outboxIds: [outboxSettings.OutboxId],
        summary: this.book.summary([outboxSettings.OutboxId]),
        scope: this.book.scope,
      },
    ];
  }

  private validate(context: BuildHookContext): readonly string[] {
    const hostedExecutionIds = new Set(
      context.entries('hosted-executions').map((entry) => (entry as { id: string }).id),
    );
    return this.registry.validate(context.moduleIds, hostedExecutionIds);
  }

  private async started(context: RuntimeHookContext): Promise<void> {
    if (this.builder.storeTraits().shared) {
      this.publications.book.useSharedStore(
        this.sharedStates.publications.store,
        this.sharedStates.publications.mirror,
      );
      this.book.useSharedStore(this.sharedStates.dispatches.mirror);
      await this.sharedStates.start();
    }
    this.run = new EventingRun();
    this.runner.bind(this.run);
    if (this.settings.Outbox.Enabled) this.startOutboxLane(context);
    this.reportStarted();
  }

  private startOutboxLane(context: RuntimeHookContext): void {
    const outboxSettings = this.settings.Outbox;
    const outbox = (this.outbox ??=
      context.resolve(outboxStoreKey) ?? embeddedOutbox(this.builder, outboxSettings));
    const dispatcher = (this.dispatcher = context.resolve(eventDispatcherKey) ?? this.inProcessDispatcher);
    this.publications.useOutbox(outbox);
    const broker = dispatcher === this.inProcessDispatcher ? null : dispatcher;
    this.loop = new OutboxDispatchLoop(
      this.builder.instanceId,
      outboxSettings,
      outbox,
      dispatcher,
      this.book,
      this.writers,
      this.run,
      broker &&
        ((messages, outcome, error) => this.publications.dispatched(messages, outcome, error, broker.id)),
    );
  }

  private reportStarted(): void {
    const entries = this.readiness(true);
    const lane = this.publications.lane;
    this.builder.story.record({
      kind: 'eventing.readiness',
      subjectId: null,
      transition: 'bound',
      message: `Eventing: ${entries.filter((entry) => entry.readinessState === 'runtime-bound').length} of ${entries.length} subscription(s) runtime-bound, lane ${lane}`,
      details: Object.fromEntries(entries.map((entry) => [entry.subscriptionId, entry.readinessState])),
    });
    this.builder.logger.log({
      level: 'info',
      eventId: eventingEventIds.registered,
      category: 'eventing',
      message: `Eventing started: ${this.registry.channels.size} channel(s), ${entries.length} subscription(s), lane ${lane}`,
    });
  }

  /**
   * Ends the run: no new batch or subscription attempt from now on, in-flight work finishes (or is aborted
   * when the engine's signal aborts, and then gives its message back), then the dispatcher closes.
   */
  private async stopping(context: RuntimeHookContext): Promise<void> {
    this.sharedStates.stop();
    await this.run.stop(context.signal);
    await this.dispatcher?.close?.();
  }
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
