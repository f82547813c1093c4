import { hostname } from 'node:os';
import type {
  ServiceIdentity,
  HealthStatus,
  InstanceEntry,
  InstancePresence,
  InstanceRecord,
  KeyedStore,
  Logger,
  RuntimeEventPublisher,
  RuntimeState,
  RuntimeStoryWriter,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';
import { instanceKey, presenceOf, servicePrefix } from './instance-record';
import type { PresenceOptions } from './presence-options';
import { PresenceTransitions } from './presence-transitions';

/** What a heartbeat reads from the engine it belongs to. */
export interface EngineVitals {
  readonly state: RuntimeState;
  readonly readiness: HealthStatus;
  readonly restartCount: number;
}

/** What `ReplicaPresence` needs; the engine builder supplies it (tests build one by hand). */
export interface ReplicaPresenceParts {
  readonly instanceId: string;
  readonly engineVersion: string;
  readonly options: PresenceOptions;
  /** The service this instance is a replica of (`builder.service`): the store lists instances per service. */
  readonly service: ServiceIdentity;
  readonly store: KeyedStore<InstanceRecord>;
  /** Whether the store provider is shared by replicas (read when presence starts, once the provider is final). */
  readonly shared: () => boolean;
  readonly clock: Clock;
  /** The engine's state now; null before the engine exists. */
  readonly vitals: () => EngineVitals | null;
  readonly story: RuntimeStoryWriter;
  readonly events: RuntimeEventPublisher;
  readonly logger: Logger;
  /** Removes registered secrets from a text shown on a surface (the engine's redacting logger). */
  readonly redact: (text: string) => string;
}

/**
 * Replica presence: this instance heartbeats into the engine's store every `HeartbeatInterval` (on a shared
 * provider only) and, with the same round trip, reads the instances of its service, judges each online, offline
 * or stopped, removes the records older than `RemoveAfter`, and records each change it sees (story, runtime
 * event, log). The catalog reads the last list synchronously. The timer starts with the first start and runs
 * across `engine.restart()`; a graceful stop writes a last heartbeat marked stopped, a failed start one in state
 * Failed, and both end the timer (the store provider closes after them).
 */
export class ReplicaPresence {
  private readonly transitions: PresenceTransitions;
  private readonly hostName = hostname();
  private startedAtUtc: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private known: readonly InstanceRecord[] = [];
  private own: InstanceRecord | null = null;
  private failure: string | null = null;
  private sharedStore = false;

  constructor(private readonly parts: ReplicaPresenceParts) {
    this.transitions = new PresenceTransitions(parts);
  }

  get instanceId(): string {
    return this.parts.instanceId;
  }

  /** True while heartbeats run on a timer. */
  get beating(): boolean {
    return this.timer !== null;
  }

  /** Starts heartbeating (a no-op while it runs: `engine.restart()` keeps the same timer). */
  begin(): void {
    this.sharedStore = this.parts.shared();
    this.startedAtUtc ??= isoAt(this.parts.clock.now());
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), this.parts.options.HeartbeatInterval);
    this.timer.unref?.();
    void this.beat();
  }

  /**
   * The last heartbeat of this run: `stopped` (a graceful stop) or not (a failed start: the record says Failed
   * and the instance goes offline after the bound). Ends the timer; waits for the write.
   */
  async end(stopped: boolean): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beat(stopped ? isoAt(this.parts.clock.now()) : null);
  }

  /**
   * One heartbeat, serialized with the others: writes this instance's record (shared store only), then reads
   * every instance of the service and records the transitions seen. Never throws; a failed write is logged once
   * per failure streak and shown on this instance's entry.
   */
  beat(stoppedAtUtc: string | null = null): Promise<void> {
    const next = this.chain.then(() => this.beatNow(stoppedAtUtc));
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** The entries of `/engine/instances`: this instance first, then the others by instance id. */
  entries(): InstanceEntry[] {
    const now = this.parts.clock.now();
    const self = this.selfRecord(now);
    if (!this.sharedStore || self === null) return self ? [this.entryOf(self, now)] : [];
    const others = this.known
      .filter((record) => record.instanceId !== this.parts.instanceId)
      .sort((a, b) => (a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0));
    return [self, ...others].map((record) => this.entryOf(record, now));
  }

  private async beatNow(stoppedAtUtc: string | null): Promise<void> {
    const now = this.parts.clock.now();
    const record = this.recordAt(now, stoppedAtUtc);
    if (!record) return;
    this.own = record;
    if (!this.sharedStore) return;
    const { store, options, service } = this.parts;
    try {
      await store.put(instanceKey(service.name, record.instanceId), record, {
        ttlMs: options.RemoveAfter,
      });
      const listed = await store.list({ prefix: servicePrefix(service.name) });
      this.known = await this.sweep(listed, now);
      this.recovered();
    } catch (error) {
      this.failed(error);
    }
  }

  /** Drops (compare-and-set on the version read) the records older than RemoveAfter; answers the rest. */
  private async sweep(
    listed: readonly { key: string; value: InstanceRecord; version: number }[],
    now: number,
  ): Promise<InstanceRecord[]> {
    const { store, options } = this.parts;
    const kept: InstanceRecord[] = [];
    for (const record of listed) {
      if (
        now - record.value.lastSeenAtMs > options.RemoveAfter &&
        record.value.instanceId !== this.instanceId
      ) {
        await store.delete(record.key, { expectedVersion: record.version });
        continue;
      }
      kept.push(record.value);
    }
    this.transitions.observe(
      kept.filter((record) => record.instanceId !== this.instanceId),
      now,
    );
    return kept;
  }

  private recordAt(now: number, stoppedAtUtc: string | null): InstanceRecord | null {
    const vitals = this.parts.vitals();
    if (!vitals || this.startedAtUtc === null) return null;
    const { options } = this.parts;
    return {
      instanceId: this.parts.instanceId,
      serviceName: this.parts.service.name,
      serviceVersion: this.parts.service.version,
      engineVersion: this.parts.engineVersion,
      hostName: this.hostName,
      pid: process.pid,
      startedAtUtc: this.startedAtUtc,
      lastSeenAtUtc: isoAt(now),
      lastSeenAtMs: now,
      lifecycleState:
        stoppedAtUtc === null && vitals.state === 'Starting' && !this.timer ? 'Failed' : vitals.state,
      readiness: vitals.readiness,
      restartCount: vitals.restartCount,
      stoppedAtUtc,
      heartbeatIntervalMs: options.HeartbeatInterval,
    };
  }

  /** This instance as it is now: the last heartbeat on a shared store, a live record otherwise. */
  private selfRecord(now: number): InstanceRecord | null {
    if (this.sharedStore) return this.own;
    const live = this.recordAt(now, null);
    if (!live) return null;
    return this.timer ? live : { ...live, stoppedAtUtc: this.own?.stoppedAtUtc ?? null };
  }

  private entryOf(record: InstanceRecord, now: number): InstanceEntry {
    const { options } = this.parts;
    const current = record.instanceId === this.parts.instanceId;
    const presence: InstancePresence = presenceOf(record, now, options.OfflineAfter);
    return {
      ...record,
      presence,
      current,
      scope: this.sharedStore ? 'shared' : 'process-local',
      offlineAfterUtc: isoAt(record.lastSeenAtMs + options.OfflineAfter),
      removeAfterUtc: isoAt(record.lastSeenAtMs + options.RemoveAfter),
      heartbeatFailure: current ? this.failure : null,
    };
  }

  private failed(error: unknown): void {
    const message = this.parts.redact(errorText(error));
    if (this.failure === null) {
      this.transitions.heartbeatFailed(message);
    }
    this.failure = message;
  }

  private recovered(): void {
    this.failure = null;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
