import {
  sharedStateFreshness,
  storeErrorCodes,
  type KeyedStore,
  type SharedStateFreshnessMetadata,
  type StoreMirror,
} from '@corekit/abstractions';
import type { EventMessage, EventPublicationState, PublicationOutcome, StateScope } from './eventing-model';
import { RecentEntries } from './recent-entries';

/** A publication state as it is kept, before the scope it is read with is added. */
export type StoredPublicationState = Omit<EventPublicationState, 'scope'>;

/** One report of a publication: what happened to it and what to show. */
export interface PublicationReport {
  readonly message: EventMessage;
  readonly outcome: PublicationOutcome;
  readonly subscriptionCounts: EventPublicationState['subscriptionCounts'];
  readonly error: string | null;
  readonly metadata: EventPublicationState['metadata'];
  /**
   * True on the outbox lane: the outbox sends a publication id once, so an `accepted` report (a staging, or a
   * staging of the same id again) never replaces an outcome a dispatcher already settled, whichever replica
   * wrote first.
   */
  readonly keepSettledOutcome?: boolean;
}

/** The state after `report`, from the state before it (undefined for a new publication id). */
export function foldPublicationState(
  previous: StoredPublicationState | undefined,
  report: PublicationReport,
  observedAtUtc: string,
): StoredPublicationState {
  const { message, outcome } = report;
  const keepPrevious =
    outcome === 'accepted' &&
    report.keepSettledOutcome === true &&
    previous !== undefined &&
    previous.outcome !== 'accepted';
  const state = {
    publicationId: message.publicationId,
    channelId: message.channelId,
    eventType: message.eventType,
    outcome: keepPrevious ? previous.outcome : outcome,
    observedAtUtc: keepPrevious ? previous.observedAtUtc : observedAtUtc,
    acceptedCount: previous?.acceptedCount ?? 0,
    succeededCount: previous?.succeededCount ?? 0,
    failedCount: previous?.failedCount ?? 0,
    skippedCount: previous?.skippedCount ?? 0,
    subscriptionCounts: keepPrevious ? previous.subscriptionCounts : report.subscriptionCounts,
    error: keepPrevious ? previous.error : report.error,
    metadata: keepPrevious
      ? { ...report.metadata, ...previous.metadata, correlationId: message.correlationId }
      : { ...previous?.metadata, ...report.metadata, correlationId: message.correlationId },
  };
  state[`${outcome}Count`] += 1;
  return state;
}

/**
 * The latest runtime state per publication id, oldest dropped first beyond `maxStates`. Without a shared
 * store provider the states live in this process (`scope: process-local`: each replica sees what it ran, a
 * restart starts empty). With one (`useSharedStore`) they live in the engine store
 * `eventing-publication-states`, written with compare-and-set, so a publication accepted on one replica and
 * dispatched by another reads the same on both (`scope: shared`, read through a mirror that follows the store's
 * change feed, or reads the whole store every `SharedStateRefreshMilliseconds` without one; `freshness()`).
 */
export class PublicationStateBook {
  private readonly states: RecentEntries<StoredPublicationState>;
  private shared: {
    store: KeyedStore<StoredPublicationState>;
    mirror: StoreMirror<StoredPublicationState>;
  } | null = null;

  constructor(private readonly maxStates: number) {
    this.states = new RecentEntries(maxStates);
  }

  /** Keeps the states in a store every replica shares from now on. */
  useSharedStore(
    store: KeyedStore<StoredPublicationState>,
    mirror: StoreMirror<StoredPublicationState>,
  ): void {
    this.shared = { store, mirror };
  }

  get scope(): StateScope {
    return this.shared ? 'shared' : 'process-local';
  }

  /** How the states follow the other replicas' writes, and the staleness bound (null while process-local). */
  freshness(): SharedStateFreshnessMetadata | null {
    return this.shared ? sharedStateFreshness(this.shared.mirror.freshness()) : null;
  }

  /** Records one report; true when the latest outcome changed. */
  async report(report: PublicationReport): Promise<boolean> {
    const observedAtUtc = new Date().toISOString();
    const id = report.message.publicationId;
    if (!this.shared) {
      const previous = this.states.get(id);
      const state = foldPublicationState(previous, report, observedAtUtc);
      this.states.set(id, state);
      return previous?.outcome !== state.outcome;
    }
    let previousOutcome: PublicationOutcome | undefined;
    const change = (previous: StoredPublicationState | undefined) => {
      previousOutcome = previous?.outcome;
      return foldPublicationState(previous, report, observedAtUtc);
    };
    try {
      const written = await this.shared.mirror.update(id, change);
      return previousOutcome !== written.value.outcome;
    } catch (error) {
      if ((error as { code?: string }).code !== storeErrorCodes.full) throw error;
      await this.dropOldest();
      const written = await this.shared.mirror.update(id, change);
      return previousOutcome !== written.value.outcome;
    }
  }

  list(): EventPublicationState[] {
    const scope = this.scope;
    const states = this.shared
      ? this.shared.mirror.values().sort((a, b) => a.observedAtUtc.localeCompare(b.observedAtUtc))
      : this.states.values();
    return states.map((state) => ({ ...state, scope }));
  }

  /** Makes room in the shared store: drops the oldest tenth of `maxStates` (at least one state). */
  private async dropOldest(): Promise<void> {
    const { store, mirror } = this.shared!;
    const records = [...(await store.list())].sort((a, b) => a.updatedAtUtc.localeCompare(b.updatedAtUtc));
    const excess = records.length - this.maxStates + Math.max(1, Math.floor(this.maxStates / 10));
    for (const record of records.slice(0, Math.max(1, excess))) {
      await store.delete(record.key);
      mirror.forget(record.key);
    }
  }
}
