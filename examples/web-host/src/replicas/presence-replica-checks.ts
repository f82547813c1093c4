import { hostname } from 'node:os';
import type { InstanceEntry } from '@corekit/abstractions';
import { answersOnReplicas, type ReplicaAnswer, type ReplicaSet } from '@corekit/testing/replica-harness';
import { consoleShowsInstanceOffline } from './console-instances-check';
import type { ReplicaCheck, ReplicaCheckContext } from './replica-checks';
import { indexes } from './surfaces';

/**
 * The presence settings the replica test gives every sample host: a heartbeat every 500 ms and offline after
 * 3 s without one, so a killed replica shows offline quickly; records removed after 10 minutes (the set is
 * stopped long before), so the replicas the other rows killed or restarted stay listed, offline or stopped.
 */
export const presenceReplicaEnvironment = {
  Engine__Presence__HeartbeatInterval: '500ms',
  Engine__Presence__OfflineAfter: '3s',
  Engine__Presence__RemoveAfter: '10m',
};
/** A heartbeat shows on every replica within one interval plus a store round trip; the margin is for a loaded machine. */
const readBoundMs = 15_000;
/** A killed replica is offline once OfflineAfter passed since its last heartbeat, seen at the next heartbeat. */
const offlineBoundMs = 3000 + 500 + 15_000;

const instancesOf = (answer: ReplicaAnswer) => answer.body as InstanceEntry[];

/** The instance id of each replica `on`: the entry its own `/engine/instances` marks current. */
async function ownIds(set: ReplicaSet, on: readonly number[]): Promise<string[]> {
  return Promise.all(
    on.map(async (index) => {
      const answer = await set.replica(index).json<InstanceEntry[]>('/engine/instances');
      expect(answer.status).toBe(200);
      return answer.body.find((entry) => entry.current)!.instanceId;
    }),
  );
}

/** Waits until every replica `on` lists each of `ids` as `expected` says; answers each replica's list. */
function listedAs(
  set: ReplicaSet,
  ids: readonly string[],
  expected: (entry: InstanceEntry) => boolean,
  on: readonly number[],
  withinMs: number,
) {
  return answersOnReplicas(
    set,
    '/engine/instances',
    (entries: InstanceEntry[]) =>
      ids.every((id) => entries.some((entry) => entry.instanceId === id && expected(entry))),
    { on, select: instancesOf, withinMs },
  );
}

async function everyReplicaListsEveryOther(set: ReplicaSet, context: ReplicaCheckContext) {
  const live = indexes(context.count);
  const ids = await ownIds(set, live);
  expect(new Set(ids).size).toBe(context.count);
  // A replica that just started may still be listed Starting for one heartbeat: wait for Started.
  const started = (entry: InstanceEntry) => entry.presence === 'online' && entry.lifecycleState === 'Started';
  const lists = await listedAs(set, ids, started, live, readBoundMs);
  for (const [index, entries] of lists.entries()) {
    expect(entries[0]).toMatchObject({ instanceId: ids[index], current: true });
    for (const id of ids) {
      expect(entries.find((entry) => entry.instanceId === id)).toMatchObject({
        presence: 'online',
        scope: 'shared',
        serviceName: 'corekit-sample-host',
        hostName: hostname(),
        lifecycleState: 'Started',
        readiness: expect.stringMatching(/^(Healthy|Degraded)$/),
        current: id === ids[index],
      });
    }
  }
  return ids;
}

/**
 * The survivors' runtime stories each say the killed instance went offline (kind `engine.instance`): recorded
 * at the heartbeat that first sees it offline, at most one interval after the catalog (judged at read) says so.
 */
async function offlineInStories(set: ReplicaSet, on: readonly number[], id: string) {
  type Story = { timeline: Array<{ kind: string; subjectId: string; transition: string }> };
  // The killed instance's transitions as each survivor recorded them. A replica starved of CPU on a loaded machine
  // may miss heartbeats and be recorded offline and online again before the kill; what the kill must leave is
  // offline as the last word about it.
  const transitions = (story: Story) =>
    story.timeline
      .filter((entry) => entry.kind === 'engine.instance' && entry.subjectId === id)
      .map((entry) => entry.transition);
  const stories = await answersOnReplicas(
    set,
    '/engine/runtime-story',
    (story: Story) => transitions(story).at(-1) === 'offline',
    { on, select: (answer) => answer.body as Story, withinMs: readBoundMs },
  );
  for (const story of stories) expect(transitions(story).at(-1)).toBe('offline');
}

/** Replica presence rows: `/engine/instances` on every replica, and a SIGKILLed replica going offline. */
export const presenceReplicaChecks: readonly ReplicaCheck[] = [
  {
    pack: 'engine',
    name: 'every replica lists every live replica online in /engine/instances; a SIGKILLed one goes offline on the others (last pass)',
    async run(set, context) {
      const ids = await everyReplicaListsEveryOther(set, context);
      // Killing costs a process start to replace; on the table's last row nothing runs after it, so the
      // killed replica is left dead (the set is stopped next) and no start is added to the suite.
      if (!context.last) return;
      const victim = context.count - 1;
      const survivors = indexes(context.count).slice(0, victim);
      await set.kill(victim);
      const offline = (entry: InstanceEntry) => entry.presence === 'offline';
      const lists = await listedAs(set, [ids[victim]!], offline, survivors, offlineBoundMs);
      for (const entries of lists) {
        expect(entries.find((entry) => entry.instanceId === ids[victim])).toMatchObject({
          presence: 'offline',
          lifecycleState: 'Started',
          stoppedAtUtc: null,
        });
        for (const id of ids.slice(0, victim))
          expect(entries.find((entry) => entry.instanceId === id)).toMatchObject({ presence: 'online' });
      }
      // The console's instances view on a survivor, in Chromium: on one provider only (the view reads the
      // catalog, whichever store is behind it), so the suite pays for one browser.
      if (context.provider === 'postgresql') {
        await consoleShowsInstanceOffline(set, survivors[0]!, ids[victim]!, ids.slice(0, victim));
      }
      await offlineInStories(set, survivors, ids[victim]!);
    },
  },
];
