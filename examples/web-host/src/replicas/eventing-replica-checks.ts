import { sameOnReplicas } from '@corekit/testing/replica-harness';
import type { ReplicaCheck } from './replica-checks';
import { jsonHeaders } from './surfaces';

/** Shared publication and dispatch states are re-read every 200 ms on the replicas. */
export const eventingReplicaEnvironment = { Engine__Eventing__SharedStateRefreshMilliseconds: '200' };
/** The refresh plus a store round trip and a dispatch pass (1 s), with a margin for a loaded machine. */
const readBoundMs = 15_000;

type State = Record<string, any>;

export const eventingReplicaChecks: readonly ReplicaCheck[] = [
  {
    pack: 'eventing',
    name: 'a publication on A reads the same on every replica; once dispatched, every replica agrees on it',
    async run(set, context) {
      const publicationId = context.unique('order');
      const published = await set.replica(0).json<State>('/engine/event-publications', {
        method: 'POST',
        headers: jsonHeaders(),
        body: JSON.stringify({
          id: publicationId,
          channelId: 'orders',
          eventType: 'order-placed',
          payload: { orderId: publicationId },
        }),
      });
      expect(published).toMatchObject({ status: 200, body: { outcome: 'accepted' } });
      // Whichever replica's dispatch pass claims it, every replica reads it succeeded, delivered once.
      const states = await sameOnReplicas(set, `/engine/event-publications/runtime/${publicationId}`, {
        select: (answer) => ({ status: answer.status, state: answer.body as State }),
        done: (answer) => answer.status === 200 && answer.state.outcome === 'succeeded',
        withinMs: readBoundMs,
      });
      for (const { state } of states)
        expect(state).toMatchObject({
          outcome: 'succeeded',
          acceptedCount: 1,
          succeededCount: 1,
          scope: 'shared',
        });
      // The dispatch state adds every replica's reports: all read the same record.
      const dispatches = await sameOnReplicas(set, '/engine/event-dispatches/eventing-outbox', {
        select: (answer) => {
          const state = answer.body as State;
          return {
            scope: state.scope,
            succeededCount: state.succeededCount,
            startedCount: state.startedCount,
          };
        },
        // The dispatch state is a record of its own, written after the publication's: wait for the report to reach
        // every replica rather than taking the first answer they agree on.
        done: (answer) => answer.succeededCount >= 1,
        withinMs: readBoundMs,
      });
      for (const dispatch of dispatches) {
        expect(dispatch.scope).toBe('shared');
        expect(dispatch.succeededCount).toBeGreaterThanOrEqual(1);
      }
    },
  },
];
