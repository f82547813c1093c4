import type {
  DependencyHealthEntry,
  RuntimeEvent,
  RuntimeStoryEntry,
  StatusDocument,
} from '@corekit/abstractions';
import { useEffect, useState } from 'preact/hooks';
import { initialReads, stripsRead } from '../initial-reads';
import { getJson } from './api';
import { stateLabels, shownState, staleAfterMs } from './dependency-status';

/** A history sample as `/engine/console/history/{id}` answers it. */
export interface Sample {
  readonly checkedAtUtc: string;
  readonly status: string;
  readonly outcome: string;
  readonly durationMs: number | null;
}

/** A dependency's outcome and when it began ("failing since"). */
export interface SinceState {
  readonly outcome: string;
  readonly sinceUtc: string;
}

export interface ConsoleState {
  /**
   * `live`: the host answers (the event stream is open and not silent past the contact bound); `lost`: the
   * host stopped answering (since `lostSinceMs`): the stream ended, or it went silent and a probe of `status`
   * got no answer in time (a frozen host keeps its sockets open).
   */
  readonly connection: 'connecting' | 'live' | 'lost';
  readonly lostSinceMs: number | null;
  /** Epoch ms of the last sign of life (an event, a heartbeat-free probe answered); null before the first. */
  readonly lastContactMs: number | null;
  readonly status: StatusDocument | null;
  readonly dependencies: readonly DependencyHealthEntry[];
  /** The latest samples per dependency, for the history strips (oldest first). */
  readonly strips: Readonly<Record<string, readonly Sample[]>>;
  readonly story: readonly RuntimeStoryEntry[];
  /** Each dependency's current outcome and since when (the store's record, then followed by pushed checks). */
  readonly since: Readonly<Record<string, SinceState>>;
  /** The last change worth announcing to screen readers. */
  readonly announcement: string;
  readonly loadError: string | null;
}

const stripLength = 30;

/**
 * How long the stream may stay silent before the console asks the host (`silenceMs`), and how long it waits
 * for the answer (`deadlineMs`): a check completes at least every shortest refresh interval, so silence past it
 * plus half a second is suspicious. A row's bound runs from its own last check, which may be up to one interval
 * before the last contact, so silence, deadline, that interval and the watchdog's tick (half a second of margin)
 * stay within the shortest staleness bound: the banner shows before any row could pass its bound unannounced.
 * Without dependencies: 30 s + 5 s.
 */
export function contactBound(dependencies: readonly DependencyHealthEntry[]): ContactBound {
  if (dependencies.length === 0) return { silenceMs: 30_000, deadlineMs: 5000 };
  const interval = Math.min(...dependencies.map((entry) => entry.refreshIntervalSeconds)) * 1000;
  const bound = Math.min(...dependencies.map(staleAfterMs));
  const silenceMs = interval + 500;
  return { silenceMs, deadlineMs: Math.max(500, Math.min(5000, bound - silenceMs - interval - 500)) };
}
export interface ContactBound {
  readonly silenceMs: number;
  readonly deadlineMs: number;
}

/** The bound of the last list of entries seen (the watchdog asks four times a second; the list changes less). */
const boundCache = new WeakMap<readonly DependencyHealthEntry[], ContactBound>();
function cachedContactBound(dependencies: readonly DependencyHealthEntry[]): ContactBound {
  let bound = boundCache.get(dependencies);
  if (!bound) {
    bound = contactBound(dependencies);
    boundCache.set(dependencies, bound);
  }
  return bound;
}

/**
 * Loaded strips with the checks pushed while they were on their way: a pushed sample newer than a dependency's
 * last loaded one is kept (the load would otherwise drop it), at most `stripLength` per dependency.
 */
export function mergeStrips(
  loaded: Readonly<Record<string, readonly Sample[]>>,
  pushed: Readonly<Record<string, readonly Sample[]>>,
): Record<string, readonly Sample[]> {
  const merged: Record<string, readonly Sample[]> = { ...loaded };
  for (const [id, samples] of Object.entries(pushed)) {
    const base = loaded[id] ?? [];
    const lastLoaded = base[base.length - 1]?.checkedAtUtc ?? '';
    const newer = samples.filter((sample) => sample.checkedAtUtc > lastLoaded);
    if (newer.length > 0) merged[id] = [...base, ...newer].slice(-stripLength);
  }
  return merged;
}

/** The User Timing mark set when the history strips are first applied (after the first paint of the rows). */
export const stripsAppliedMark = 'console:history-applied';

const storyLimit = 2000;

type Listener = (state: ConsoleState) => void;

/**
 * The console's one source of truth: loaded from the JSON routes when the page opens (and again after every
 * reconnect of the event stream), then kept current by the pushed events alone; nothing polls health state.
 */
export class ConsoleStore {
  private state: ConsoleState = {
    connection: 'connecting',
    lostSinceMs: null,
    lastContactMs: null,
    status: null,
    dependencies: [],
    strips: {},
    story: [],
    since: {},
    announcement: '',
    loadError: null,
  };
  private readonly listeners = new Set<Listener>();
  /** Status reads sent, and the latest one shown: an answer to an older read never replaces a newer one's. */
  private statusReads = 0;
  private statusShown = 0;
  private source: EventSource | null = null;
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private probing = false;
  /** The overview asked for the strips (after its first paint); a reload after a reconnect reads them again. */
  private stripsWanted = false;
  private stripsLoading: Promise<void> | null = null;

  get current(): ConsoleState {
    return this.state;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private frame: number | null = null;

  /**
   * Applies a change; the views hear of it once per animation frame, whatever the number of changes in it (a
   * burst of 1,000 pushed checks is one render, not 1,000).
   */
  private set(patch: Partial<ConsoleState>): void {
    this.state = { ...this.state, ...patch };
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      for (const listener of this.listeners) listener(this.state);
    });
  }

  /**
   * Opens the event stream and loads everything; called by the entry script before the first render, so the
   * requests are under way while the shell renders. A second call does nothing.
   */
  connect(): void {
    if (this.source) return;
    // Loaded at once (also without the ServerSentEvents transport), then again after every reconnect.
    void this.reload();
    const source = new EventSource('events');
    this.source = source;
    source.onopen = () => {
      const reconnected = this.state.connection === 'lost';
      this.markContact();
      // The first reads were sent before the stream was open: a readiness change between the two reached neither
      // (the dependencies heal with their next pushed check, readiness only changes when it changes). Once the
      // stream is open, nothing is missed: status is read again (a reconnect reloads everything).
      if (!reconnected) void this.reloadStatus();
    };
    source.onerror = () => this.markLost();
    source.addEventListener('shutdown', () => this.markLost());
    for (const type of ['health-changed', 'dependency-changed', 'dependency-checked', 'runtime-story']) {
      source.addEventListener(type, (message) => {
        this.markContact();
        this.apply(JSON.parse((message as MessageEvent<string>).data));
      });
    }
    this.watchdog = setInterval(() => void this.checkContact(), 250);
  }

  disconnect(): void {
    this.source?.close();
    this.source = null;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** A sign of life: back to live (and a full reload when contact had been lost). */
  private markContact(): void {
    const reconnected = this.state.connection === 'lost';
    this.set({
      connection: 'live',
      lostSinceMs: null,
      lastContactMs: Date.now(),
      ...(reconnected ? { announcement: 'The host answers again; statuses are current.' } : {}),
    });
    if (reconnected) void this.reload();
  }

  private markLost(): void {
    if (this.state.connection === 'lost') return;
    this.set({
      connection: 'lost',
      lostSinceMs: Date.now(),
      announcement: 'The host stopped answering; statuses are no longer current.',
    });
  }

  /**
   * A frozen host keeps the stream open and sends nothing, so a closed stream is not the only sign: when no
   * event arrived for longer than the contact bound, `status` is read with a short deadline; no answer in time
   * is a lost contact. The bound keeps the banner inside the shortest staleness bound of the dependencies.
   */
  private async checkContact(): Promise<void> {
    const last = this.state.lastContactMs;
    if (this.probing || last === null || this.state.connection === 'lost') return;
    const { silenceMs, deadlineMs } = cachedContactBound(this.state.dependencies);
    if (Date.now() - last < silenceMs) return;
    this.probing = true;
    try {
      await getJson<StatusDocument>('status', { signal: AbortSignal.timeout(deadlineMs) });
      this.set({ lastContactMs: Date.now() });
    } catch {
      this.markLost();
    } finally {
      this.probing = false;
    }
  }

  /**
   * Everything shown before the first paint, from the JSON routes (on open and on every reconnect): every request
   * at once (the page's head preloads the same URLs, initial-reads.ts, so the first ones come from that cache). The
   * rows render as soon as status, dependencies and story are in; "failing since" follows in the same frame when it
   * is in too, else in the next (without it the rows still show). The strips are read once the overview asked
   * for them ({@link wantStrips}, after its first paint), and again here after a reconnect.
   */
  async reload(): Promise<void> {
    const states = getJson<{ dependencies: Record<string, SinceState> }>(initialReads.since).catch(() => ({
      dependencies: {} as Record<string, SinceState>,
    }));
    const statusRead = ++this.statusReads;
    try {
      const [status, dependencies, story] = await Promise.all([
        getJson<StatusDocument>(initialReads.status),
        getJson<DependencyHealthEntry[]>(initialReads.dependencies),
        getJson<{ timeline: RuntimeStoryEntry[] }>(initialReads.story),
      ]);
      this.set({
        ...this.newerStatus(statusRead, status),
        dependencies,
        story: story.timeline.slice(-storyLimit),
        loadError: null,
      });
    } catch (error) {
      this.set({ loadError: error instanceof Error ? error.message : String(error) });
      return;
    }
    void states.then((since) => this.set({ since: { ...since.dependencies } }));
    if (this.stripsWanted) void this.loadStrips();
  }

  /** `{ status }` when the read numbered `read` is newer than the status shown, else nothing. */
  private newerStatus(read: number, status: StatusDocument): Partial<ConsoleState> {
    if (read < this.statusShown) return {};
    this.statusShown = read;
    return { status };
  }

  /**
   * Reads the history strips unless they are loaded or on their way: called by the overview once its rows are
   * painted, so the largest read and its parse never delay the first paint.
   */
  wantStrips(): void {
    if (this.stripsWanted) return;
    this.stripsWanted = true;
    void this.loadStrips();
  }

  private loadStrips(): Promise<void> {
    this.stripsLoading ??= getJson<{ dependencies: Record<string, Sample[]> }>(stripsRead)
      .then((loaded) => {
        this.set({ strips: mergeStrips(loaded.dependencies, this.state.strips) });
        if (performance.getEntriesByName(stripsAppliedMark).length === 0) performance.mark(stripsAppliedMark);
      })
      .catch(() => {
        // Without strips the rows still show; the pushed checks fill them.
      })
      .finally(() => {
        this.stripsLoading = null;
      });
    return this.stripsLoading;
  }

  /** Re-reads the runtime status (after a lifecycle event; the status has no event of its own). */
  private async reloadStatus(): Promise<void> {
    const statusRead = ++this.statusReads;
    try {
      this.set(this.newerStatus(statusRead, await getJson<StatusDocument>(initialReads.status)));
    } catch {
      // The stream's error handler reports a host that stopped answering.
    }
  }

  private apply(event: RuntimeEvent): void {
    switch (event.type) {
      case 'dependency-checked': {
        const entry = event.entry;
        const previous = this.state.dependencies.find((candidate) => candidate.id === entry.id);
        const dependencies = previous
          ? this.state.dependencies.map((candidate) => (candidate.id === entry.id ? entry : candidate))
          : [...this.state.dependencies, entry];
        const sample: Sample = {
          checkedAtUtc: entry.checkedAtUtc ?? event.atUtc,
          status: entry.status,
          outcome: entry.timedOut
            ? 'timed-out'
            : entry.status === 'Unhealthy'
              ? 'failed'
              : entry.status === 'Degraded'
                ? 'degraded'
                : 'healthy',
          durationMs: entry.durationMs,
        };
        const strip = [...(this.state.strips[entry.id] ?? []), sample].slice(-stripLength);
        const known = this.state.since[entry.id];
        const since =
          known && known.outcome === sample.outcome
            ? this.state.since
            : { ...this.state.since, [entry.id]: { outcome: sample.outcome, sinceUtc: sample.checkedAtUtc } };
        const now = Date.now();
        const before = previous ? shownState(previous, now, true) : null;
        const after = shownState(entry, now, true);
        this.set({
          dependencies,
          strips: { ...this.state.strips, [entry.id]: strip },
          since,
          ...(before !== after ? { announcement: `${entry.displayName} is now ${stateLabels[after]}.` } : {}),
        });
        return;
      }
      case 'dependency-changed':
        // The matching dependency-checked event carries the whole entry; nothing else to do.
        return;
      case 'health-changed':
        // Newer than any read still on its way: its answer must not put the old status back.
        this.statusShown = ++this.statusReads;
        this.set({
          status: this.state.status
            ? { ...this.state.status, [event.probe]: event.status }
            : this.state.status,
          announcement: `${event.probe === 'liveness' ? 'Liveness' : 'Readiness'} is now ${event.status}.`,
        });
        void this.reloadStatus();
        return;
      case 'runtime-story':
        this.set({ story: [...this.state.story, event.entry].slice(-storyLimit) });
        if (event.entry.kind === 'runtime') void this.reloadStatus();
        return;
      default:
        return;
    }
  }
}

export const consoleStore = new ConsoleStore();

/** The store's state in a component, re-rendered on every change. */
export function useConsoleState(): ConsoleState {
  const [state, setState] = useState(consoleStore.current);
  useEffect(() => consoleStore.subscribe(setState), []);
  return state;
}

/** The current time, ticking every second (for ages and staleness; reads nothing from the server). */
export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
