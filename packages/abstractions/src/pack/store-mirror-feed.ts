import type { StoreChange, StoreChangeFeedState } from './store-change-feed';

/**
 * How a mirror's copy follows the store, and the staleness bound it can promise (what surfaces report):
 * - `change-feed`: the provider's feed is connected; a write of another replica is in the copy within
 *   `stalenessBoundMs`, the longest delay measured between a write and its application here over the recent
 *   changes (one round trip of the feed's subscribe command until a change was measured);
 * - `change-feed-down`: the feed lost its connection; the copy is read whole every `refreshMs` (the pack's
 *   polling interval) until the feed is back, then read whole at once (the catch-up);
 * - `interval`: the provider has no feed (or it is switched off): the copy is read whole every `refreshMs`;
 * - `local`: nothing is shared; every writer is this process and the copy has each write at once.
 */
export type StorePropagation = 'change-feed' | 'change-feed-down' | 'interval' | 'local';

/** The freshness of a mirror's copy (`StoreMirror.freshness()`). */
export interface StoreMirrorFreshness {
  readonly propagation: StorePropagation;
  /** The staleness bound of another replica's write in this copy, in milliseconds; null when nothing is shared. */
  readonly stalenessBoundMs: number | null;
  /** How the bound was found, in words an operator reads (`measured over 42 changes`, `feed down: polling`). */
  readonly basis: string;
  /** The feed's state (path, connected, reconnects...); null without a feed. */
  readonly feed: StoreChangeFeedState | null;
  /** When the whole store was last read into the copy; null before the first read. */
  readonly lastFullReadAtUtc: string | null;
  /** Whole reads made because the feed (re)connected (the catch-up after a missed notification). */
  readonly catchUpReads: number;
  /** Milliseconds between two safety-net full reads while the feed is connected; null without a feed. */
  readonly fullReadIntervalMs: number | null;
}

/**
 * The delays (milliseconds) between a write, stamped by its writer, and the moment this process applied it,
 * over the last `size` changes: the measured half of the staleness bound. Samples outside [0, `ceiling`] are
 * clock skew or a manual test clock, not a propagation delay, and are left out.
 */
export class PropagationWindow {
  private readonly samples: number[] = [];
  private next = 0;

  constructor(
    private readonly size = 128,
    private readonly ceiling = Number.POSITIVE_INFINITY,
  ) {}

  add(delayMs: number): void {
    if (!Number.isFinite(delayMs) || delayMs < 0 || delayMs > this.ceiling) return;
    if (this.samples.length < this.size) this.samples.push(delayMs);
    else this.samples[this.next] = delayMs;
    this.next = (this.next + 1) % this.size;
  }

  get count(): number {
    return this.samples.length;
  }

  /** The longest delay of the window, rounded up to a whole millisecond; null without samples. */
  max(): number | null {
    return this.samples.length === 0 ? null : Math.ceil(Math.max(...this.samples));
  }
}

/**
 * Keys whose records were written with a TTL, by expiry time: one timer, armed for the earliest, hands the due
 * keys to `due` (the mirror reads each again; the store judges expiry with its own clock).
 */
export class ExpirySchedule {
  private readonly expiries = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private armedFor = Number.POSITIVE_INFINITY;

  constructor(
    private readonly due: (keys: string[]) => void,
    private readonly now: () => number,
  ) {}

  /** Notes the expiry a change carries (or that the key no longer expires). */
  note(change: StoreChange): void {
    if (change.version === null || change.expiresAtMs === undefined) {
      this.expiries.delete(change.key);
      return;
    }
    this.expiries.set(change.key, change.expiresAtMs);
    if (change.expiresAtMs < this.armedFor) this.arm(change.expiresAtMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private arm(at: number): void {
    this.stop();
    this.armedFor = at;
    // One millisecond past the expiry: a record is live while now < expiresAt.
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - this.now() + 1));
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = null;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.now();
    const dueKeys: string[] = [];
    let earliest = Number.POSITIVE_INFINITY;
    for (const [key, at] of this.expiries) {
      if (at < now) {
        dueKeys.push(key);
        this.expiries.delete(key);
      } else earliest = Math.min(earliest, at);
    }
    if (earliest !== Number.POSITIVE_INFINITY) this.arm(earliest);
    if (dueKeys.length > 0) this.due(dueKeys);
  }
}

/** The keys a technology surface reports about a mirrored shared state (`sharedStateFreshness`). */
export interface SharedStateFreshnessMetadata {
  /** `change-feed`, `change-feed-down`, `interval` or `local` (see `StorePropagation`). */
  readonly sharedStatePropagation: StorePropagation;
  /** The staleness bound of another replica's write on this replica's surfaces, ms; null when not shared. */
  readonly sharedStateStalenessBoundMilliseconds: number | null;
  /** How the bound was found (says so when the feed is down). */
  readonly sharedStateStalenessBasis: string;
  /** Whether the store's change feed is connected; null without a feed. */
  readonly sharedStateFeedConnected: boolean | null;
  /** When the whole store was last read (catch-up, safety net or polling); null before the first read. */
  readonly sharedStateLastFullReadAtUtc: string | null;
}

/**
 * The one way packs report a mirror's freshness on their surfaces: the propagation, the bound it can promise
 * now (measured while the feed is connected; the polling interval while it is down or absent), and why.
 */
export function sharedStateFreshness(freshness: StoreMirrorFreshness): SharedStateFreshnessMetadata {
  return {
    sharedStatePropagation: freshness.propagation,
    sharedStateStalenessBoundMilliseconds: freshness.stalenessBoundMs,
    sharedStateStalenessBasis: freshness.basis,
    sharedStateFeedConnected: freshness.feed?.connected ?? null,
    sharedStateLastFullReadAtUtc: freshness.lastFullReadAtUtc,
  };
}
