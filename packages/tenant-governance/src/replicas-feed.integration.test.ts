import { pollUntil } from '@corekit/testing/poll-until';
import { keepFeedConnectionsDown } from '@corekit/testing/replica-feed';
import type { InvitationSendResult } from './delivery-seams';
import { scriptedSender } from './delivery-test-support';
import { describeOnSharedStores, sharedClock, type Replica } from './replica-test-support';

const failed: InvitationSendResult = { outcome: 'sender-failed', reason: 'http-status-503', retryable: true };
/** Bounds for a loaded machine, never expectations: the feed delivers in milliseconds. */
const withinBound = { timeoutMs: 15_000, intervalMs: 50 };

type Metadata = Record<string, any>;

/** Waits until every surface of `replica` that reports the shared state says `propagation`. */
function propagationOn(replica: Replica, propagation: string): Promise<Metadata> {
  return pollUntil(
    async (): Promise<Metadata> => replica.surface('tenant-invitations'),
    (metadata) =>
      metadata.sharedStatePropagation === propagation &&
      ['tenant-memberships', 'tenant-administration', 'tenant-domain-ownership'].every(
        (id) => replica.surface(id).sharedStatePropagation === propagation,
      ),
    withinBound,
  );
}

describeOnSharedStores('governance surfaces follow the change feed of a shared %s store', (run) => {
  /** Invites someone on `replica`; answers the invitation id. */
  async function invite(replica: Replica, inviteeId: string): Promise<string> {
    const { invitation } = await replica.governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId,
      roles: ['member'],
    });
    return invitation!.invitationId;
  }

  it('records, retry-queue, observation and live-proof counts written on A reach B by the feed', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    // Polling every 300 s: only the change feed can carry A's writes to B within the bound.
    const a = await run.start(clock.now, [scriptedSender('mail', [failed]).sender], {}, 300);
    const b = await run.start(clock.now, [], {}, 300);
    const connected = await propagationOn(b, 'change-feed');
    expect(connected).toMatchObject({
      summarySource: 'shared-store-change-feed',
      sharedStateFeedConnected: true,
      sharedStateStalenessBoundMilliseconds: expect.any(Number),
    });
    expect(connected.sharedStateStalenessBasis).toMatch(/postgresql-listen-notify|redis-pubsub/);

    const invitationId = await invite(a, 'fed@example.test');
    await a.dispatcher.dispatch({ tenantId: 'acme', invitationId, channel: 'email' });
    await a.status.submit([
      {
        providerKey: 'sendgrid',
        providerEventId: 'evt-1',
        tenantId: 'acme',
        invitationId,
        status: 'deferred',
      },
    ]);
    await a.governance.declareDomain({ tenantId: 'acme', domainName: 'fed.example.test' });
    await a.domains.issueChallenge({
      tenantId: 'acme',
      domainName: 'fed.example.test',
      method: 'http-file',
    });

    const invitations = await pollUntil(
      async (): Promise<Metadata> => b.surface('tenant-invitations'),
      (metadata) =>
        metadata.invitationCount === 1 && metadata.retryQueueCount === 1 && metadata.observationCount === 1,
      withinBound,
    );
    expect(invitations).toMatchObject({
      perTenantRetryCounts: { acme: 1 },
      statusBreakdown: { pending: 1 },
    });
    const domains = await pollUntil(
      async (): Promise<Metadata> => b.surface('tenant-domain-ownership'),
      (metadata) =>
        metadata.publishedHttpProofCount === 1 && metadata.statusBreakdown['pending-verification'] === 1,
      withinBound,
    );
    expect(domains).toMatchObject({
      domainOwnershipCount: 1,
      statusBreakdown: { 'pending-verification': 1 },
    });
    // The bound follows the feed (measured delays, or two round trips before any), not the polling interval.
    const bound = b.surface('tenant-invitations').sharedStateStalenessBoundMilliseconds as number;
    expect(bound).toBeLessThan(300_000);
  });

  it('with the feed connections killed, the surfaces report polling and its bound, catch up, and report the feed again', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const a = await run.start(clock.now, []);
    const b = await run.start(clock.now, []);
    const before = await propagationOn(b, 'change-feed');
    const killer = keepFeedConnectionsDown(() => run.namespace.killFeed());
    try {
      const down = await propagationOn(b, 'change-feed-down');
      expect(down).toMatchObject({
        sharedStateFeedConnected: false,
        // The polling interval (SharedStateRefreshIntervalSeconds 1) while the feed is down.
        sharedStateStalenessBoundMilliseconds: 1000,
        summarySource: 'shared-store-refresh',
        summaryMaxStalenessSeconds: 1,
      });
      expect(down.sharedStateStalenessBasis).toMatch(/is down/);
      // A write while the feeds keep dropping reaches B by a whole read (polling, or the catch-up of a
      // reconnection that lived a moment).
      await invite(a, 'while-down@example.test');
      await pollUntil(
        async () => b.surface('tenant-invitations').invitationCount,
        (count) => count === 1,
        withinBound,
      );
    } finally {
      await killer.stop();
    }
    const back = await pollUntil(
      async (): Promise<Metadata> => b.surface('tenant-invitations'),
      (metadata) =>
        metadata.sharedStatePropagation === 'change-feed' && metadata.sharedStateFeedConnected === true,
      withinBound,
    );
    expect(back.summarySource).toBe('shared-store-change-feed');
    // B read every store whole again once its feed was back (the catch-up), after the reads before the kill.
    expect(Date.parse(back.sharedStateLastFullReadAtUtc)).toBeGreaterThan(
      Date.parse(before.sharedStateLastFullReadAtUtc),
    );
    await invite(a, 'after-catch-up@example.test');
    await pollUntil(
      async () => b.surface('tenant-invitations').invitationCount,
      (count) => count === 2,
      withinBound,
    );
  }, 60_000);
});
