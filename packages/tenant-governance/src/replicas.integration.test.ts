import path from 'node:path';
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import { pollUntil } from '@corekit/testing/poll-until';
import { describeOnSharedStores, sharedClock } from './replica-test-support';

/** Well inside the test timeout, far above the change feed's delay and the 1 s polling interval while it is down. */
const withinBound = { timeoutMs: 10_000, intervalMs: 100 };

describeOnSharedStores('governance on two replicas sharing one %s store', (run) => {
  it('an invitation created on A is read by id, listed and counted on B; a revoke on B reaches A', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const a = await run.start(clock.now, []);
    const b = await run.start(clock.now, []);
    const { invitation } = await a.governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'new@example.test',
      roles: ['member'],
    });
    const id = invitation!.invitationId;
    // A's own write shows on A's surface at once; B's surface through the change feed (B reads nothing
    // itself before: a lookup would put the record in its summary too).
    expect(a.surface('tenant-invitations').invitationCount).toBe(1);
    const counted = await pollUntil(
      async () => b.surface('tenant-invitations'),
      (metadata) => metadata.invitationCount === 1 && metadata.sharedStatePropagation === 'change-feed',
      withinBound,
    );
    expect(counted).toMatchObject({
      invitationCount: 1,
      statusBreakdown: { pending: 1 },
      summarySource: 'shared-store-change-feed',
      summaryMaxStalenessSeconds: expect.any(Number),
      sharedStatePropagation: 'change-feed',
      sharedStateFeedConnected: true,
    });
    expect(b.surface('tenant-administration').invitationCount).toBe(1);
    // Lookups and lists on B read the store.
    expect((await b.governance.getInvitation('acme', id))?.status).toBe('pending');
    expect((await b.governance.listInvitations('acme')).map((item) => item.invitationId)).toEqual([id]);

    await b.governance.execute({ command: 'revoke', tenantId: 'acme', invitationId: id });
    const revoked = await pollUntil(
      async () => a.surface('tenant-invitations').statusBreakdown,
      (breakdown) => JSON.stringify(breakdown) === JSON.stringify({ revoked: 1 }),
      withinBound,
    );
    expect(revoked).toEqual({ revoked: 1 });
    expect((await a.governance.getInvitation('acme', id))?.status).toBe('revoked');
  });

  it('replicas sweeping expiries at once expire an overdue invitation once, and neither sweep fails', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const a = await run.start(clock.now, []);
    const b = await run.start(clock.now, []);
    const invitations = await Promise.all(
      ['one', 'two', 'three'].map((name) =>
        a.governance.execute({
          command: 'invite',
          tenantId: 'acme',
          inviteeKind: 'email',
          inviteeId: `${name}@example.test`,
          roles: ['member'],
          expiresInSeconds: 60,
        }),
      ),
    );
    clock.advance(61);
    const swept = await Promise.all([
      a.governance.expireOverdueInvitations(),
      b.governance.expireOverdueInvitations(),
    ]);
    expect(swept[0] + swept[1]).toBe(3);
    for (const { invitation } of invitations) {
      expect((await b.governance.getInvitation('acme', invitation!.invitationId))?.status).toBe('expired');
    }
    const expiries = (await a.governance.auditEntries()).filter((entry) => entry.command === 'expire');
    expect(expiries).toHaveLength(3);
  });

  it('an observation recorded on A is queried and counted on B', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const a = await run.start(clock.now, []);
    const b = await run.start(clock.now, []);
    const { invitation } = await a.governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'seen@example.test',
      roles: ['member'],
    });
    const invitationId = invitation!.invitationId;
    await a.status.submit([
      {
        providerKey: 'sendgrid',
        providerEventId: 'evt-1',
        tenantId: 'acme',
        invitationId,
        status: 'delivered',
      },
    ]);
    expect((await b.status.query({ invitationId })).totalMatched).toBe(1);
    expect((await b.status.getStatus('acme', invitationId))?.status).toBe('delivered');
    // The same event id on B is a duplicate: the observation store is the shared one.
    const again = await b.status.submit([
      {
        providerKey: 'sendgrid',
        providerEventId: 'evt-1',
        tenantId: 'acme',
        invitationId,
        status: 'delivered',
      },
    ]);
    expect(again.outcomes.map((item) => item.outcome)).toEqual(['duplicate']);
    const counted = await pollUntil(
      async () => b.surface('tenant-invitations').observationCount,
      (count) => count === 1,
      withinBound,
    );
    expect(counted).toBe(1);
  });

  it('surfaces report the shared provider, and a configured queue or observation file is not used', async () => {
    if (!run.available) return;
    const directory = mkdtempSync(path.join(os.tmpdir(), 'governance-replicas-'));
    const a = await run.start(sharedClock().now, [], {
      InvitationDeliveryRetryQueueFilePath: path.join(directory, 'queue.json'),
      InvitationDeliveryObservationStoreFilePath: path.join(directory, 'observations.json'),
    });
    const invitations = a.surface('tenant-invitations');
    const kind = run.kind;
    expect(invitations).toMatchObject({
      storeKind: kind,
      storeDurability: 'durable-shared',
      storeScope: 'shared',
      retryQueueKind: kind,
      retryQueueDurability: 'durable-shared',
      retryQueueScope: 'shared',
      retryQueueFilePathUsed: false,
      retryClaimMode: 'owner-lease-compare-and-set',
      retryClaimScope: 'shared',
      retryClaimLeaseSeconds: 120,
      retryExecutionCoordinationScope: 'process-local',
      observationStoreKind: kind,
      observationStoreDurability: 'durable-shared',
      observationStoreScope: 'shared',
      observationStoreFilePathUsed: false,
    });
    for (const id of ['tenant-memberships', 'tenant-domain-ownership', 'tenant-governance-actions']) {
      expect(a.surface(id)).toMatchObject({ storeKind: kind, storeScope: 'shared' });
    }
    expect(a.logger.records.some((record) => /RetryQueueFilePath is not used/.test(record.message))).toBe(
      true,
    );
  });
});
