import { answersOnReplicas, type ReplicaSet } from '@corekit/testing/replica-harness';
import { keepFeedConnectionsDown } from '@corekit/testing/replica-feed';
import { startRun } from './agents-replica-checks';
import type { ReplicaCheck, ReplicaCheckContext } from './replica-checks';
import { indexes, surfaceOn } from './surfaces';

/**
 * The change-feed rows of the replica table. The surfaces of the shared states report how they follow other
 * replicas (`sharedStatePropagation`) and the staleness bound: measured while the feed is connected, the pack's
 * refresh interval (200 ms here) while it is down. Waits are bounds for a loaded machine, never expectations.
 */
const boundMs = 20_000;
const refreshMs = 200;
const surfaceId = 'agent-tool-execution';

type Metadata = Record<string, any>;

async function everySurface(
  set: ReplicaSet,
  on: readonly number[],
  done: (metadata: Metadata) => boolean,
): Promise<Metadata[]> {
  return answersOnReplicas(set, '/engine/technology-surfaces', done, {
    select: (answer) =>
      (answer.body as Array<{ id: string; metadata: Metadata }>).find((surface) => surface.id === surfaceId)
        ?.metadata ?? {},
    on,
    withinMs: boundMs,
  });
}

/** A run created on replica `from`, and every replica of `on` reading it. */
async function runSeenEverywhere(
  set: ReplicaSet,
  context: ReplicaCheckContext,
  from: number,
  on: readonly number[],
  name: string,
): Promise<void> {
  const runId = context.unique(name);
  const created = await startRun(set, from, 'lookup-ticket', { runId, arguments: '{"ticketId":"T-7"}' });
  expect(created).toMatchObject({ status: 200, body: { outcome: 'succeeded' } });
  const seen = await answersOnReplicas<number>(
    set,
    `/engine/agent-tool-runs/${runId}`,
    (status) => status === 200,
    {
      select: (answer) => answer.status,
      on,
      withinMs: boundMs,
    },
  );
  expect(seen.every((status) => status === 200)).toBe(true);
}

export const feedReplicaChecks: readonly ReplicaCheck[] = [
  {
    pack: 'stores',
    name: 'the feed connections killed mid-run: surfaces report the polling bound, then catch up once the feed is back',
    async run(set, context) {
      const on = indexes(context.count);
      const connected = await everySurface(
        set,
        on,
        (metadata) => metadata.sharedStatePropagation === 'change-feed',
      );
      for (const metadata of connected) {
        expect(metadata).toMatchObject({
          sharedStateFeedConnected: true,
          runCatalogSource: 'shared-store-change-feed',
        });
      }
      const before = connected.map((metadata) => metadata.sharedStateLastFullReadAtUtc as string);
      const killer = keepFeedConnectionsDown(set);
      try {
        // Each replica reconnects as soon as it can (Redis within 0.1 s): each is watched on its own until it
        // reports the feed down, not all at one instant.
        for (const index of on) {
          const [metadata] = await everySurface(
            set,
            [index],
            (current) => current.sharedStatePropagation === 'change-feed-down',
          );
          expect(metadata).toMatchObject({
            sharedStatePropagation: 'change-feed-down',
            sharedStateFeedConnected: false,
            sharedStateStalenessBoundMilliseconds: refreshMs,
            runCatalogSource: 'shared-store-refresh',
            runCatalogStalenessBoundMilliseconds: refreshMs,
          });
          expect(metadata!.sharedStateStalenessBasis).toMatch(/is down/);
        }
        // The feeds keep dropping: the polling reads (or a feed up for a moment) carry the write to every replica.
        await runSeenEverywhere(set, context, 0, on, 'while-down');
      } finally {
        await killer.stop();
      }
      const back = await everySurface(
        set,
        on,
        (metadata) =>
          metadata.sharedStatePropagation === 'change-feed' && metadata.sharedStateFeedConnected === true,
      );
      // Each replica read the whole store again once its feed was back (the catch-up).
      back.forEach((metadata, index) =>
        expect(Date.parse(metadata.sharedStateLastFullReadAtUtc)).toBeGreaterThan(Date.parse(before[index]!)),
      );
      await runSeenEverywhere(set, context, context.count - 1, on, 'after-catch-up');
    },
  },
  {
    pack: 'stores',
    name: 'with four replicas, one SIGKILLed: the others keep agreeing; restarted, it reads what was written meanwhile',
    async run(set, context) {
      if (context.count < 4) return;
      const victim = 1;
      await set.kill(victim);
      const survivors = indexes(context.count).filter((index) => index !== victim);
      await runSeenEverywhere(set, context, 0, survivors, 'after-kill');
      const missed = context.unique('missed-by-the-dead');
      const created = await startRun(set, context.count - 1, 'lookup-ticket', {
        runId: missed,
        arguments: '{"ticketId":"T-8"}',
      });
      expect(created.status).toBe(200);
      await set.restart(victim);
      const seen = await answersOnReplicas<number>(
        set,
        `/engine/agent-tool-runs/${missed}`,
        (status) => status === 200,
        {
          select: (answer) => answer.status,
          on: indexes(context.count),
          withinMs: boundMs,
        },
      );
      expect(seen.every((status) => status === 200)).toBe(true);
      const [restarted] = await surfaceOn(set, surfaceId, [victim]);
      expect(restarted).toMatchObject({ sharedStatePropagation: expect.stringMatching(/^change-feed/) });
      await runSeenEverywhere(set, context, victim, indexes(context.count), 'from-the-restarted');
    },
  },
];
