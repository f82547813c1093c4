import type { InstanceEntry, InstanceRecord, RuntimeEvent, StoreProvider } from '@corekit/abstractions';
import { manualClock, type ManualClock } from '../clock';
import type { CoreEngine } from '../engine';
import { createEngineBuilder } from '../engine-builder';
import { createMemoryLogger } from '../logger';
import { MemoryStoreProvider } from '../stores';
import { instanceStoreName } from './instance-record';
import { replicaPresenceKey } from './register-replica-presence';

// Replica presence on a manual clock. Two engines in this process on ONE store provider that says it is shared
// are two replicas (each its own instance id, heartbeat and catalog); heartbeats are driven by hand
// (`presence.beat()`), the interval timer is an hour so it never fires during a test.

const seconds = (count: number) => count * 1000;
const presenceSection = {
  HeartbeatInterval: '1h',
  OfflineAfter: '2h',
  RemoveAfter: '5h',
};
const hour = 3_600_000;

/** A memory provider on the test's clock that claims to be shared: every engine given it sees the same records. */
function sharedInProcessProvider(clock: ManualClock): StoreProvider {
  const memory = new MemoryStoreProvider({ clock });
  return {
    kind: 'shared-memory',
    durable: false,
    shared: true,
    open: (name, options) => memory.open(name, options),
  };
}

function replica(clock: ManualClock, provider: StoreProvider | null, instanceId: string, extra: object = {}) {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    contentRoot: '/nonexistent',
    environment: {},
    clock,
    logger,
    instanceId,
    configuration: {
      Engine: { Service: { Name: 'orders' }, Presence: { ...presenceSection, ...extra } },
    },
  });
  if (provider) builder.useStoreProvider(provider);
  return { builder, logger };
}

function started(clock: ManualClock, provider: StoreProvider | null, instanceId: string) {
  const { builder, logger } = replica(clock, provider, instanceId);
  const engine = builder.build();
  const events: RuntimeEvent[] = [];
  engine.subscribe((event) => events.push(event));
  const presence = engine.resolve(replicaPresenceKey)!;
  return { engine, logger, events, presence, builder };
}

const instances = (engine: CoreEngine) => engine.catalog('instances')!.entries() as InstanceEntry[];
const presenceOf = (engine: CoreEngine) =>
  Object.fromEntries(instances(engine).map((entry) => [entry.instanceId, entry.presence]));
const instanceStory = (engine: CoreEngine) =>
  engine
    .runtimeStory()
    .timeline.filter((entry) => entry.kind === 'engine.instance')
    .map((entry) => `${entry.subjectId} ${entry.transition}`);

describe('Engine:Presence configuration', () => {
  it.each([
    [
      { HeartbeatInterval: '10s', OfflineAfter: '10s' },
      'Engine:Presence:OfflineAfter',
      'must be longer than HeartbeatInterval (10000 ms)',
    ],
    [
      { OfflineAfter: '30s', RemoveAfter: '20s' },
      'Engine:Presence:RemoveAfter',
      'must be longer than OfflineAfter (30000 ms)',
    ],
    [
      { HeartbeatInterval: '50ms', OfflineAfter: '1s' },
      'Engine:Presence:HeartbeatInterval',
      'must be at least 100ms',
    ],
    [{ HeartbeatInterval: 5 }, 'Engine:Presence:HeartbeatInterval', 'add a unit'],
  ])('%j is refused naming %s', (section, keyPath, text) => {
    const create = () =>
      createEngineBuilder({
        contentRoot: '/nonexistent',
        environment: {},
        logger: createMemoryLogger(),
        configuration: { Engine: { Presence: section } },
      });
    expect(create).toThrow(expect.objectContaining({ code: 'CONFIGURATION_INVALID' }));
    expect(create).toThrow(keyPath);
    expect(create).toThrow(text);
  });

  it('a misspelled key fails the first start with the closest key', async () => {
    const { builder } = replica(manualClock(), null, 'host:1:a', { OfflineAfterr: '5m' });
    const engine = builder.build();
    await expect(engine.start()).rejects.toThrow(/Engine:Presence:OfflineAfterr.*OfflineAfter/s);
  });

  it('the defaults are 5 s, 20 s and 10 min, service corekit-host', async () => {
    const builder = createEngineBuilder({
      contentRoot: '/nonexistent',
      environment: {},
      logger: createMemoryLogger(),
    });
    const engine = builder.build();
    await engine.start();
    expect(instances(engine)).toEqual([
      expect.objectContaining({ serviceName: 'corekit-host', heartbeatIntervalMs: 5000 }),
    ]);
    const [entry] = instances(engine);
    expect(Date.parse(entry.offlineAfterUtc) - entry.lastSeenAtMs).toBe(seconds(20));
    expect(Date.parse(entry.removeAfterUtc) - entry.lastSeenAtMs).toBe(seconds(600));
    await engine.stop();
  });
});

describe('presence on a store that is not shared (Memory)', () => {
  it('lists this instance only, process-local, online while started and stopped after a stop; writes nothing', async () => {
    const clock = manualClock();
    const memory = new MemoryStoreProvider({ clock });
    const { engine } = started(clock, memory, 'host-a:10:aaaa');
    expect(instances(engine)).toEqual([]);
    await engine.start();
    expect(instances(engine)).toEqual([
      expect.objectContaining({
        instanceId: 'host-a:10:aaaa',
        serviceName: 'orders',
        pid: process.pid,
        presence: 'online',
        current: true,
        scope: 'process-local',
        lifecycleState: 'Started',
        readiness: 'Healthy',
        stoppedAtUtc: null,
      }),
    ]);
    expect(engine.catalog('instances')!.find('host-a:10:aaaa')).toMatchObject({ presence: 'online' });
    expect(engine.snapshot().instances).toHaveLength(1);
    await engine.stop();
    expect(instances(engine)).toEqual([
      expect.objectContaining({ presence: 'stopped', lifecycleState: 'Stopped', scope: 'process-local' }),
    ]);
    expect(await memory.open(instanceStoreName).count()).toBe(0);
  });
});

describe('presence of two replicas on one shared store', () => {
  let clock: ManualClock;
  let a: ReturnType<typeof started>;
  let b: ReturnType<typeof started>;

  beforeEach(async () => {
    clock = manualClock();
    const provider = sharedInProcessProvider(clock);
    a = started(clock, provider, 'host-a:10:aaaa');
    b = started(clock, provider, 'host-b:20:bbbb');
    await a.engine.start();
    await b.engine.start();
    await b.presence.beat();
    await a.presence.beat();
  });
  afterEach(async () => {
    await a.engine.stop();
    await b.engine.stop();
  });

  it('each lists both, itself first and current, scope shared, with host, pid, versions and state', () => {
    for (const [engine, self, other] of [
      [a.engine, 'host-a:10:aaaa', 'host-b:20:bbbb'],
      [b.engine, 'host-b:20:bbbb', 'host-a:10:aaaa'],
    ] as const) {
      expect(instances(engine)).toEqual([
        expect.objectContaining({ instanceId: self, current: true, presence: 'online', scope: 'shared' }),
        expect.objectContaining({ instanceId: other, current: false, presence: 'online', scope: 'shared' }),
      ]);
    }
    expect(instances(a.engine)[1]).toMatchObject({
      serviceName: 'orders',
      serviceVersion: null,
      lifecycleState: 'Started',
      readiness: 'Healthy',
      restartCount: 0,
      heartbeatFailure: null,
    });
    expect(instanceStory(a.engine)).toEqual(['host-b:20:bbbb online']);
    expect(instanceStory(b.engine)).toEqual(['host-a:10:aaaa online']);
  });

  it('a replica that stops heartbeating is offline after OfflineAfter, online again on its next heartbeat', async () => {
    clock.advance(2 * hour);
    await a.presence.beat();
    expect(presenceOf(a.engine)['host-b:20:bbbb']).toBe('online'); // exactly at the bound: still online
    clock.advance(1);
    await a.presence.beat();
    expect(presenceOf(a.engine)).toEqual({ 'host-a:10:aaaa': 'online', 'host-b:20:bbbb': 'offline' });
    expect(a.engine.catalog('instances')!.entries()).toHaveLength(2);
    expect(instanceStory(a.engine)).toEqual(['host-b:20:bbbb online', 'host-b:20:bbbb offline']);
    expect(a.events).toContainEqual(
      expect.objectContaining({
        type: 'pack-event',
        name: 'engine.instance-offline',
        subjectId: 'host-b:20:bbbb',
      }),
    );
    expect(a.logger.records).toContainEqual(
      expect.objectContaining({ eventId: 2034, level: 'warn', instanceId: 'host-b:20:bbbb' }),
    );
    await b.presence.beat();
    await a.presence.beat();
    expect(presenceOf(a.engine)['host-b:20:bbbb']).toBe('online');
    expect(instanceStory(a.engine)).toEqual([
      'host-b:20:bbbb online',
      'host-b:20:bbbb offline',
      'host-b:20:bbbb online',
    ]);
  });

  it('the record of a replica silent for longer than RemoveAfter is removed from the store and the catalog', async () => {
    clock.advance(5 * hour + 1);
    await a.presence.beat();
    expect(presenceOf(a.engine)).toEqual({ 'host-a:10:aaaa': 'online' });
    expect(instanceStory(a.engine)).toEqual(['host-b:20:bbbb online', 'host-b:20:bbbb removed']);
    expect(a.logger.records).toContainEqual(expect.objectContaining({ eventId: 2036 }));
    const store = a.builder.openStore<InstanceRecord>(instanceStoreName);
    expect((await store.list()).map((record) => record.value.instanceId)).toEqual(['host-a:10:aaaa']);
  });

  it('a graceful stop is shown stopped by the other replica, then removed after RemoveAfter', async () => {
    await b.engine.stop();
    await a.presence.beat();
    expect(presenceOf(a.engine)['host-b:20:bbbb']).toBe('stopped');
    expect(a.engine.catalog('instances')!.find('host-b:20:bbbb')).toMatchObject({
      lifecycleState: 'Stopping',
      stoppedAtUtc: expect.any(String),
    });
    expect(b.presence.beating).toBe(false);
    clock.advance(5 * hour + 1);
    await a.presence.beat();
    expect(instanceStory(a.engine)).toEqual([
      'host-b:20:bbbb online',
      'host-b:20:bbbb stopped',
      'host-b:20:bbbb removed',
    ]);
  });

  it('engine.restart() keeps the instance id, start time and heartbeat, counting the restart', async () => {
    const before = instances(a.engine).find((entry) => entry.instanceId === 'host-b:20:bbbb')!;
    clock.advance(seconds(30));
    await b.engine.restart();
    expect(b.presence.beating).toBe(true);
    await b.presence.beat();
    await a.presence.beat();
    expect(instances(a.engine).find((entry) => entry.instanceId === 'host-b:20:bbbb')).toMatchObject({
      presence: 'online',
      lifecycleState: 'Started',
      restartCount: 1,
      startedAtUtc: before.startedAtUtc,
    });
    expect(instances(a.engine)).toHaveLength(2);
  });
});

describe('presence through a failed start', () => {
  it('the last heartbeat says Failed and stops; a restart heartbeats again with the same instance id', async () => {
    const clock = manualClock();
    const provider = sharedInProcessProvider(clock);
    const observer = started(clock, provider, 'host-a:10:aaaa');
    const { builder } = replica(clock, provider, 'host-b:20:bbbb');
    let fail = true;
    builder.addModule({
      id: 'flaky',
      version: '1.0.0',
      start() {
        if (fail) throw new Error('not yet');
      },
    });
    const failing = builder.build();
    const presence = failing.resolve(replicaPresenceKey)!;
    await observer.engine.start();
    await expect(failing.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    expect(presence.beating).toBe(false);
    await observer.presence.beat();
    expect(observer.engine.catalog('instances')!.find('host-b:20:bbbb')).toMatchObject({
      presence: 'online',
      lifecycleState: 'Failed',
    });
    clock.advance(2 * hour + 1);
    await observer.presence.beat();
    expect(presenceOf(observer.engine)['host-b:20:bbbb']).toBe('offline');
    fail = false;
    clock.advance(seconds(11)); // past ManualRestartBackoff
    await failing.restart();
    expect(presence.beating).toBe(true);
    await presence.beat();
    await observer.presence.beat();
    expect(observer.engine.catalog('instances')!.find('host-b:20:bbbb')).toMatchObject({
      presence: 'online',
      lifecycleState: 'Started',
    });
    await failing.stop();
    await observer.engine.stop();
  });
});
