import { randomUUID } from 'node:crypto';
import {
  OperationError,
  type EngineBuilder,
  type Logger,
  type PackMeter,
  type PackTracer,
  type RuntimeEventPublisher,
  type RuntimeStoryWriter,
} from '@corekit/abstractions';
import type { z } from 'zod';
import { eventingErrorCodes, publicationRoute, routeTriggerPublisherId } from './eventing-constants';
import { eventingEventIds } from './eventing-event-ids';
import { PublicationStateBook } from './publication-states';
import type {
  EventMessage,
  EventPublicationResult,
  EventPublicationState,
  eventPublicationRequestSchema,
  PublicationOutcome,
} from './eventing-model';
import type { EventingOptions } from './eventing-options';
import type { EventingRegistry } from './eventing-registry';
import { MessagingTelemetry, type MessagingDestination } from './messaging-telemetry';
import type { OutboxStore } from './outbox-store';
import type { SubscriptionRunner, SubscriptionRunResult } from './subscription-runner';

type ParsedRequest = z.output<typeof eventPublicationRequestSchema>;

interface Writers {
  readonly logger: Logger;
  readonly story: RuntimeStoryWriter;
  readonly events: RuntimeEventPublisher;
  readonly meter: PackMeter;
  readonly tracer: PackTracer;
}

/**
 * Publication: validates the request against the declarations, then either runs the matching in-process
 * subscriptions (direct lane) or stages the message in the outbox (outbox lane: accepted means staged), and
 * keeps the latest runtime state of every publication.
 */
export class PublicationService {
  private readonly states: PublicationStateBook;
  private outbox: OutboxStore | null = null;
  private readonly messaging: MessagingTelemetry;

  constructor(
    private readonly options: EventingOptions,
    private readonly registry: EventingRegistry,
    private readonly runner: SubscriptionRunner,
    private readonly writers: Writers,
    /**
     * Where a message of the outbox lane will go (the dispatcher installed, else this process's
     * subscriptions), for its create span; the direct lane always runs this process's subscriptions.
     */
    private readonly destinations: {
      readonly outbox: (message: EventMessage) => MessagingDestination;
      readonly inProcess: (message: EventMessage) => MessagingDestination;
    },
  ) {
    this.states = new PublicationStateBook(options.MaxPublicationStates);
    this.messaging = new MessagingTelemetry(writers);
  }

  static writersOf(builder: EngineBuilder): Writers {
    return {
      logger: builder.logger,
      story: builder.story,
      events: builder.events,
      meter: builder.meter,
      tracer: builder.tracer,
    };
  }

  useOutbox(outbox: OutboxStore): void {
    this.outbox = outbox;
  }

  get lane(): 'direct' | 'outbox' {
    return this.options.Outbox.Enabled ? 'outbox' : 'direct';
  }

  async publish(request: ParsedRequest): Promise<EventPublicationResult> {
    if (!this.options.EnablePublication) {
      throw new OperationError(
        'not-active',
        eventingErrorCodes.publicationNotActive,
        'Event publication is not active in this runtime (Engine:Eventing:EnablePublication is false).',
      );
    }
    const channel = this.registry.channels.get(request.channelId);
    if (!channel) {
      throw new OperationError(
        'not-found',
        eventingErrorCodes.channelNotFound,
        `Channel "${request.channelId}" is not registered.`,
        {
          channelId: request.channelId,
        },
      );
    }
    if (channel.eventTypes.length > 0 && !channel.eventTypes.includes(request.eventType)) {
      throw new OperationError(
        'invalid-input',
        eventingErrorCodes.eventTypeNotDeclared,
        `Channel "${channel.id}" does not carry event type "${request.eventType}" (declared: ${channel.eventTypes.join(', ')}).`,
      );
    }
    const payloadBytes = Buffer.byteLength(JSON.stringify(request.payload));
    if (payloadBytes > this.options.MaxPayloadBytes) {
      throw new OperationError(
        'too-large',
        eventingErrorCodes.payloadTooLarge,
        `The payload is ${payloadBytes} bytes; Engine:Eventing:MaxPayloadBytes allows ${this.options.MaxPayloadBytes}.`,
      );
    }
    const acceptedAtUtc = new Date().toISOString();
    const created: EventMessage = {
      publicationId: request.id ?? randomUUID(),
      channelId: channel.id,
      eventType: request.eventType,
      payload: request.payload,
      occurredAtUtc: request.occurredAtUtc ?? acceptedAtUtc,
      contentType: request.contentType,
      correlationId: request.correlationId ?? null,
      tenantId: request.tenantId ?? null,
      headers: request.headers ?? {},
      metadata: request.metadata ?? {},
      actorId: request.actorId ?? null,
    };
    // The message carries its creation context (`traceparent`) to the dispatcher and consumers: a create span
    // when it is staged for a later send, the publishing span itself when it is delivered within the request.
    const message =
      this.lane === 'outbox'
        ? this.messaging.created(created, this.destinations.outbox(created))
        : this.messaging.inRequest(created);
    const base = {
      trigger: 'route',
      route: publicationRoute,
      publisherId: routeTriggerPublisherId,
      lane: this.lane,
    };
    this.writers.meter
      .counter('corekit.eventing.publications', 'event publications accepted, by lane')
      .add(1, { lane: this.lane });
    const matching = this.registry.matching(channel.id, message.eventType);
    if (this.lane === 'outbox') {
      const staged = await this.stage(message);
      await this.report(
        message,
        'accepted',
        { matched: matching.length, succeeded: 0, failed: 0, skipped: 0 },
        null,
        {
          lane: 'outbox',
          outboxId: this.options.Outbox.OutboxId,
          staged,
        },
        true,
      );
      this.writers.logger.log({
        level: 'debug',
        eventId: eventingEventIds.publicationStaged,
        category: 'eventing',
        message: `Publication staged in outbox ${this.options.Outbox.OutboxId}`,
        channelId: channel.id,
        duplicate: !staged,
      });
      return {
        publicationId: message.publicationId,
        channelId: channel.id,
        eventType: message.eventType,
        outcome: 'accepted',
        acceptedAtUtc,
        metadata: {
          ...base,
          outboxId: this.options.Outbox.OutboxId,
          staged: true,
          duplicateStaging: !staged,
          deliveryCompletion: 'pending-dispatch',
          matchedSubscriptionCount: matching.length,
        },
      };
    }
    await this.report(
      message,
      'accepted',
      { matched: matching.length, succeeded: 0, failed: 0, skipped: 0 },
      null,
      { lane: 'direct' },
    );
    const results = await this.messaging.process(
      message,
      this.destinations.inProcess(message),
      () => this.runner.run(matching, message),
      true,
    );
    await this.completeRun(message, matching.length, results);
    const counts = countResults(results);
    return {
      publicationId: message.publicationId,
      channelId: channel.id,
      eventType: message.eventType,
      outcome: 'accepted',
      acceptedAtUtc,
      metadata: {
        ...base,
        deliveryCompletion: 'in-request',
        matchedSubscriptionCount: matching.length,
        executedSubscriptionCount: results.length,
        succeededSubscriptionCount: counts.succeeded,
        failedSubscriptionCount: counts.failed,
        skippedSubscriptionCount: counts.skipped,
      },
    };
  }

  /** Records the outcome of running the subscriptions of a message (direct lane, or the in-process dispatcher). */
  async completeRun(
    message: EventMessage,
    matched: number,
    results: readonly SubscriptionRunResult[],
  ): Promise<PublicationOutcome> {
    const counts = countResults(results);
    const outcome: PublicationOutcome =
      counts.failed > 0
        ? 'failed'
        : results.length > 0 && counts.skipped === results.length
          ? 'skipped'
          : 'succeeded';
    const errors = results
      .filter((result) => result.error)
      .map((result) => `${result.subscriptionId}: ${result.error}`);
    await this.report(
      message,
      outcome,
      { matched, ...counts },
      errors.length > 0 ? errors.join('; ').slice(0, 500) : null,
      {},
    );
    for (const result of results) {
      if (result.outcome === 'failed') {
        this.writers.logger.log({
          level: 'warn',
          eventId: eventingEventIds.subscriptionFailed,
          category: 'eventing',
          message: `Subscription ${result.subscriptionId} failed after ${result.attempts} attempt(s)`,
          subscriptionId: result.subscriptionId,
          error: result.error,
        });
      }
    }
    return outcome;
  }

  list(): EventPublicationState[] {
    return this.states.list();
  }

  /**
   * Records what a broker dispatcher did with staged publications: `succeeded` once the broker confirmed them,
   * `failed` once their attempts were exhausted. No subscription ran in this process: the counts say how many
   * subscriptions match, the metadata which dispatcher delivered them.
   */
  async dispatched(
    messages: readonly EventMessage[],
    outcome: 'succeeded' | 'failed',
    error: string | null,
    dispatcherId: string,
  ): Promise<void> {
    for (const message of messages) {
      const matched = this.registry.matching(message.channelId, message.eventType).length;
      await this.report(message, outcome, { matched, succeeded: 0, failed: 0, skipped: 0 }, error, {
        deliveryCompletion: 'dispatched',
        dispatcherId,
      });
    }
  }

  /** The book of publication states (to move it onto a shared store at start). */
  get book(): PublicationStateBook {
    return this.states;
  }

  private async stage(message: EventMessage): Promise<boolean> {
    if (!this.outbox) {
      throw new OperationError(
        'unavailable',
        eventingErrorCodes.outboxUnavailable,
        'The outbox is not open yet.',
      );
    }
    try {
      return await this.outbox.stage(message);
    } catch (error) {
      const full = (error as { code?: string }).code === 'STORE_FULL';
      this.writers.logger.log({
        level: 'warn',
        eventId: eventingEventIds.stagingRefused,
        category: 'eventing',
        message: full ? 'Staging refused: the outbox is full' : 'Staging failed',
        outboxId: this.options.Outbox.OutboxId,
      });
      throw new OperationError(
        'unavailable',
        full ? eventingErrorCodes.outboxFull : eventingErrorCodes.outboxUnavailable,
        full
          ? `Outbox ${this.options.Outbox.OutboxId} holds Engine:Eventing:Outbox:MaxStagedMessages messages; try again later.`
          : `Outbox ${this.options.Outbox.OutboxId} could not stage the message; try again later.`,
      );
    }
  }

  /**
   * Records a report in the state book; a state that cannot be recorded (the shared store is unreachable) is
   * logged and does not fail the publication, whose staging or run already happened.
   */
  private async report(
    message: EventMessage,
    outcome: PublicationOutcome,
    subscriptionCounts: EventPublicationState['subscriptionCounts'],
    error: string | null,
    metadata: EventPublicationState['metadata'],
    keepSettledOutcome = false,
  ): Promise<void> {
    let changed: boolean;
    try {
      changed = await this.states.report({
        message,
        outcome,
        subscriptionCounts,
        error,
        metadata,
        keepSettledOutcome,
      });
    } catch (caught) {
      this.writers.logger.log({
        level: 'warn',
        eventId: eventingEventIds.publicationAccepted,
        category: 'eventing',
        message: `The runtime state of a publication (outcome ${outcome}) could not be recorded`,
        channelId: message.channelId,
        error: caught instanceof Error ? caught.message.slice(0, 300) : String(caught),
      });
      return;
    }
    if (changed && outcome !== 'accepted') {
      this.writers.events.publish({
        type: `eventing.publication-${outcome}`,
        subjectId: message.publicationId,
        data: { channelId: message.channelId, eventType: message.eventType, ...subscriptionCounts },
      });
    }
  }
}

/** Counts outcomes; on the direct lane a subscription the stop interrupted did not complete: it counts as failed. */
function countResults(results: readonly SubscriptionRunResult[]) {
  return {
    succeeded: results.filter((result) => result.outcome === 'succeeded').length,
    failed: results.filter((result) => result.outcome === 'failed' || result.outcome === 'interrupted')
      .length,
    skipped: results.filter((result) => result.outcome === 'skipped').length,
  };
}
