import {
  errorCode,
  sharedStateFreshness,
  StoreMirror,
  type KeyedStore,
  type Logger,
  type SharedStateFreshnessMetadata,
  type StoreMirrorFreshness,
  type StorePropagation,
} from '@corekit/abstractions';
import { governanceEventIds } from './governance-event-ids';

/**
 * What the governance surfaces say about the freshness of their summaries: the fields every pack reports
 * about a mirrored shared state (`sharedStatePropagation`...), plus the governance fields of before the
 * change feed, which keep their names and meaning.
 */
export interface SummaryFreshness extends SharedStateFreshnessMetadata {
  /**
   * `store-on-write`: one process owns the records, every write updates the summary. `shared-store-change-feed`:
   * the summaries follow the shared store's change feed. `shared-store-refresh`: they are reloaded on
   * `SharedStateRefreshIntervalSeconds` (the provider has no feed, it is switched off, or it is down).
   */
  readonly summarySource: 'store-on-write' | 'shared-store-change-feed' | 'shared-store-refresh';
  /** The staleness bound of another replica's write, in whole seconds (rounded up); null when nothing is shared. */
  readonly summaryMaxStalenessSeconds: number | null;
  /** When the summaries were last read whole from the shared store (null before the first read, or not shared). */
  readonly summaryRefreshedAtUtc: string | null;
}

/** Worse first: the combined freshness is the one of the governance store that lags most. */
const propagationRank: Readonly<Record<StorePropagation, number>> = {
  'change-feed-down': 3,
  interval: 2,
  'change-feed': 1,
  local: 0,
};

/**
 * The read copies (`StoreMirror`) behind the governance surfaces, which are read synchronously: the records
 * (memberships, invitations, domains, actions), the retry queue, the observations and the domain challenges.
 * With a shared store provider each copy follows the provider's change feed (each announced key read again),
 * reads its store whole after every (re)connection of the feed and on its safety-net interval
 * (`Engine:Stores:ChangeFeed:FullReadIntervalSeconds`), and reads it whole every
 * `SharedStateRefreshIntervalSeconds` while the provider has no feed or the feed is down. Every copy takes
 * this process's own writes at once. A failed read is logged (4511, warn) and retried by the next one.
 */
export class SharedStateMirrors {
  private readonly mirrors: Array<{ readonly name: string; readonly mirror: StoreMirror<unknown> }> = [];
  private shared = false;

  constructor(
    private readonly refreshIntervalSeconds: number,
    private readonly logger: Logger,
  ) {}

  /** A read copy of `store`, started and stopped with the others (the registrations add theirs before build). */
  mirror<T>(store: KeyedStore<T>): StoreMirror<T> {
    const mirror = new StoreMirror<T>(store, {
      refreshMs: this.refreshIntervalSeconds * 1000,
      onRefreshFailure: (error) => this.logFailure(store.name, error),
    });
    this.mirrors.push({ name: store.name, mirror: mirror as StoreMirror<unknown> });
    return mirror;
  }

  /**
   * Loads every copy and, when the store provider is `shared`, keeps each following the store until `stop()`;
   * called from the `started` hook. A first load that fails fails the start.
   */
  async start(shared: boolean): Promise<void> {
    this.shared = shared;
    await Promise.all(this.mirrors.map(({ mirror }) => mirror.start(shared)));
  }

  stop(): void {
    for (const { mirror } of this.mirrors) mirror.stop();
  }

  /** Reads every store whole into its copy now (tests; the expiry sweep while no feed is connected). */
  async load(): Promise<void> {
    await Promise.all(this.mirrors.map(({ mirror }) => mirror.load()));
  }

  /** True while every copy follows a connected change feed (a whole read would learn nothing new). */
  get feedConnected(): boolean {
    return this.shared && this.mirrors.every(({ mirror }) => mirror.feedConnected);
  }

  /**
   * The freshness of the copy that lags most: the worst propagation (a feed down before polling before a
   * connected feed), the longest bound, the oldest whole read; the basis names that store.
   */
  freshness(): SummaryFreshness {
    const each = this.mirrors.map(({ name, mirror }) => ({ name, freshness: mirror.freshness() }));
    const worst = each.reduce<(typeof each)[number] | undefined>(
      (current, item) =>
        current === undefined || lagsMore(item.freshness, current.freshness) ? item : current,
      undefined,
    );
    if (!this.shared || worst === undefined || worst.freshness.propagation === 'local') {
      return {
        summarySource: 'store-on-write',
        summaryMaxStalenessSeconds: null,
        summaryRefreshedAtUtc: null,
        ...sharedStateFreshness({
          propagation: 'local',
          stalenessBoundMs: null,
          basis: 'not shared',
          feed: null,
          lastFullReadAtUtc: null,
          catchUpReads: 0,
          fullReadIntervalMs: null,
        }),
      };
    }
    const feeds = each.map((item) => item.freshness.feed).filter((feed) => feed !== null);
    const reads = each.map((item) => item.freshness.lastFullReadAtUtc);
    const oldestRead = reads.includes(null) ? null : ([...reads].sort()[0] ?? null);
    const combined = sharedStateFreshness({
      ...worst.freshness,
      basis: `${worst.freshness.basis} (${worst.name}, the slowest of ${each.length} governance stores)`,
      lastFullReadAtUtc: oldestRead,
    });
    const boundMs = combined.sharedStateStalenessBoundMilliseconds;
    return {
      summarySource:
        combined.sharedStatePropagation === 'change-feed'
          ? 'shared-store-change-feed'
          : 'shared-store-refresh',
      summaryMaxStalenessSeconds: boundMs === null ? null : Math.max(1, Math.ceil(boundMs / 1000)),
      summaryRefreshedAtUtc: oldestRead,
      ...combined,
      sharedStateFeedConnected: feeds.length === 0 ? null : feeds.every((feed) => feed.connected),
    };
  }

  private logFailure(storeName: string, error: unknown): void {
    // The error code only: a driver message may carry an address.
    this.logger.log({
      level: 'warn',
      eventId: governanceEventIds.stateLoaded,
      category: 'tenant-governance',
      message: `Tenant governance summaries could not be read from the shared store ${storeName} (${errorCode(error)}); the surfaces keep the last copy and the next read retries`,
      code: errorCode(error),
      store: storeName,
    });
  }
}

function lagsMore(candidate: StoreMirrorFreshness, current: StoreMirrorFreshness): boolean {
  const rank = propagationRank[candidate.propagation] - propagationRank[current.propagation];
  if (rank !== 0) return rank > 0;
  return (candidate.stalenessBoundMs ?? 0) > (current.stalenessBoundMs ?? 0);
}
