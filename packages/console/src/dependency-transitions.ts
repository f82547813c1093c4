import {
  errorCode,
  storeErrorCodes,
  type DependencyHealthEntry,
  type KeyedStore,
} from '@corekit/abstractions';
import { outcomeOf, type CheckOutcome } from './dependency-history';

/** The outcome a dependency is in now and since when (one `current/{id}` record per dependency). */
export interface DependencyCurrentState {
  readonly dependencyId: string;
  readonly outcome: CheckOutcome;
  /** When the first check with this outcome completed (ISO-8601 UTC): "failing since". */
  readonly sinceUtc: string;
}

/** One change of a dependency's outcome (a `transition/{id}/{ms}` record). */
export interface DependencyTransition {
  readonly dependencyId: string;
  /** Null for the first check this store ever saw of the dependency. */
  readonly from: CheckOutcome | null;
  readonly to: CheckOutcome;
  readonly atUtc: string;
  /** The error of the check that changed it (failed, timed out), else null. */
  readonly error: { readonly code: string; readonly message: string } | null;
  /** The check's description (a degraded check's reason), else null. */
  readonly description: string | null;
}

/** What the transitions store holds: the current state per dependency and every change. */
export type TransitionRecord =
  | ({ readonly record: 'current' } & DependencyCurrentState)
  | ({ readonly record: 'transition' } & DependencyTransition);

export interface DependencyTransitionsOptions {
  /** How long a transition is kept (the console's history retention). */
  readonly retentionMs: number;
  /** Called when the store was full and the oldest transition of the dependency was dropped. */
  readonly onDropped?: (key: string) => void;
}

const attempts = 5;
const currentKey = (dependencyId: string) => `current/${dependencyId}`;
const transitionPrefix = (dependencyId: string) => `transition/${dependencyId}/`;

/**
 * The state changes of every dependency (from → to, when), on the engine's store: a transition is written only
 * when a check's outcome differs from the stored current one (compare-and-set on `current/{id}`, so replicas
 * sharing the store record one change once), so a durable provider keeps them across restarts and a restarted
 * process does not invent a change for a dependency still in the state it was in. Transitions expire after the
 * retention; the current state does not (it is one record per dependency).
 */
export class DependencyTransitions {
  constructor(
    private readonly store: KeyedStore<TransitionRecord>,
    private readonly options: DependencyTransitionsOptions,
  ) {}

  /** Records the check's outcome: a transition when it changed (entries never checked are ignored). */
  async record(entry: DependencyHealthEntry): Promise<void> {
    if (entry.checkedAtUtc === null) return;
    const to = outcomeOf(entry);
    const atUtc = entry.checkedAtUtc;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const current = await this.store.get(currentKey(entry.id));
      const previous = current?.value.record === 'current' ? current.value : null;
      if (previous && (previous.outcome === to || previous.sinceUtc >= atUtc)) return;
      const state: TransitionRecord = {
        record: 'current',
        dependencyId: entry.id,
        outcome: to,
        sinceUtc: atUtc,
      };
      const written = await this.store.put(currentKey(entry.id), state, {
        expectedVersion: current?.version ?? 0,
      });
      if (!written.written) continue;
      await this.append({
        record: 'transition',
        dependencyId: entry.id,
        from: previous?.outcome ?? null,
        to,
        atUtc,
        error: to === 'failed' || to === 'timed-out' ? entry.error : null,
        description: entry.description,
      });
      return;
    }
  }

  private async append(transition: TransitionRecord & { record: 'transition' }): Promise<void> {
    const key = `${transitionPrefix(transition.dependencyId)}${String(Date.parse(transition.atUtc)).padStart(15, '0')}`;
    const ttlMs = Math.max(1, Date.parse(transition.atUtc) + this.options.retentionMs - Date.now());
    try {
      await this.store.put(key, transition, { ttlMs });
    } catch (error) {
      if (errorCode(error) !== storeErrorCodes.full) throw error;
      const [oldest] = await this.store.list({ prefix: transitionPrefix(transition.dependencyId), limit: 1 });
      const victim = oldest ?? (await this.store.list({ prefix: 'transition/', limit: 1 }))[0];
      if (victim && (await this.store.delete(victim.key))) this.options.onDropped?.(victim.key);
      await this.store.put(key, transition, { ttlMs });
    }
  }

  /** The current outcome of every dependency the store has seen, and since when. */
  async currentStates(): Promise<Record<string, DependencyCurrentState>> {
    const states: Record<string, DependencyCurrentState> = {};
    for (const { value } of await this.store.list({ prefix: 'current/' })) {
      if (value.record !== 'current') continue;
      states[value.dependencyId] = {
        dependencyId: value.dependencyId,
        outcome: value.outcome,
        sinceUtc: value.sinceUtc,
      };
    }
    return states;
  }

  /** The transitions of one dependency, newest first, at most `limit`. */
  async transitions(dependencyId: string, limit: number): Promise<DependencyTransition[]> {
    const records = await this.store.list({ prefix: transitionPrefix(dependencyId) });
    return records
      .flatMap(({ value }) =>
        value.record === 'transition'
          ? [
              {
                dependencyId: value.dependencyId,
                from: value.from,
                to: value.to,
                atUtc: value.atUtc,
                error: value.error,
                description: value.description,
              },
            ]
          : [],
      )
      .sort((a, b) => Date.parse(b.atUtc) - Date.parse(a.atUtc))
      .slice(0, limit);
  }
}
