import { answersOnReplicas, sameOnReplicas } from '@corekit/testing/replica-harness';
import { governanceDemoCredentials } from '../packs/governance-web-demo';
import type { ReplicaCheck } from './replica-checks';
import { indexes, jsonHeaders, surfaceMetadata, surfaceOn } from './surfaces';

/**
 * Governance summaries follow the store's change feed; while it is down (the feed row kills it) they are read
 * whole every second on the replicas (the documented bound is this plus a round trip).
 */
export const governanceReplicaEnvironment = {
  Engine__MultiTenancy__Governance__SharedStateRefreshIntervalSeconds: '1',
};
/** The feed's delay, or the polling (1 s) plus a store round trip, with a margin for a loaded machine. */
const readBoundMs = 15_000;

const headers = jsonHeaders(governanceDemoCredentials.bearerToken);
const invitations = surfaceMetadata('tenant-invitations');

export const governanceReplicaChecks: readonly ReplicaCheck[] = [
  {
    pack: 'tenant governance',
    name: 'an invitation made on A is counted by every replica within the bound and dispatched by id on the last',
    async run(set, context) {
      const invited = await set.replica(0).json<any>('/engine/tenant-administration/commands', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          command: 'invite',
          tenantId: 'acme',
          inviteeKind: 'email',
          inviteeId: `${context.unique('invitee')}@example.test`,
          roles: ['member'],
        }),
      });
      expect(invited.status).toBe(200);
      const invitationId = invited.body.invitation.invitationId as string;
      // A counts its own write at once; every other replica through the change feed.
      const [onA] = await surfaceOn(set, 'tenant-invitations', [0]);
      const counts = await sameOnReplicas(set, '/engine/technology-surfaces', {
        select: (answer) => invitations(answer).invitationCount as number,
        done: (count) => count === onA.invitationCount,
        withinMs: readBoundMs,
      });
      expect(counts).toEqual(indexes(context.count).map(() => onA.invitationCount));
      const sources = await answersOnReplicas<Record<string, any>>(
        set,
        '/engine/technology-surfaces',
        (fields) => fields.summarySource === 'shared-store-change-feed',
        { select: (answer) => invitations(answer), on: indexes(context.count), withinMs: readBoundMs },
      );
      for (const surface of sources) {
        expect(surface).toMatchObject({
          storeScope: 'shared',
          summarySource: 'shared-store-change-feed',
          sharedStatePropagation: 'change-feed',
          sharedStateFeedConnected: true,
        });
      }
      // By id on another replica: the last one reads the invitation from the store and dispatches it.
      const dispatched = await set
        .replica(context.count - 1)
        .json<any>('/engine/tenant-invitations/delivery-dispatches', {
          method: 'POST',
          headers,
          body: JSON.stringify({ tenantId: 'acme', invitationId }),
        });
      expect(dispatched).toMatchObject({ status: 200, body: { invitationStatus: 'sent' } });
    },
  },
  {
    pack: 'tenant governance',
    name: 'the retry queue is the shared store on every replica, claimed under a lease, with one count',
    async run(set, context) {
      const queues = await answersOnReplicas(set, '/engine/technology-surfaces', () => true, {
        select: (answer) => {
          const fields = invitations(answer);
          return {
            scope: fields.retryQueueScope,
            claims: fields.retryClaimMode,
            count: fields.retryQueueCount,
          };
        },
      });
      for (const queue of queues)
        expect(queue).toMatchObject({ scope: 'shared', claims: 'owner-lease-compare-and-set' });
      await sameOnReplicas(set, '/engine/technology-surfaces', {
        select: (answer) => invitations(answer).retryQueueCount,
        withinMs: readBoundMs,
        on: indexes(context.count),
      });
    },
  },
];
