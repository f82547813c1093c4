import path from 'node:path';
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import { startFixture } from '@corekit/testing/child-process';
import { pollUntil } from '@corekit/testing/poll-until';
import type { InvitationSendResult } from './delivery-seams';
import { scriptedSender } from './delivery-test-support';
import { describeOnSharedStores, sharedClock, type Replica } from './replica-test-support';

const failed: InvitationSendResult = { outcome: 'sender-failed', reason: 'http-status-503', retryable: true };
const dispatched: InvitationSendResult = { outcome: 'dispatched', providerMessageId: 'pm-1' };
/** Well inside the test timeout, far above the change feed's delay and the 1 s polling interval while it is down. */
const withinBound = { timeoutMs: 10_000, intervalMs: 100 };

/** A send that waits until the test lets it answer (a replica "frozen" mid-send). */
function gate() {
  let open: (result: InvitationSendResult) => void = () => undefined;
  const answer = new Promise<InvitationSendResult>((resolve) => (open = resolve));
  return { answer: () => answer, open: (result: InvitationSendResult) => open(result) };
}

describeOnSharedStores('retry claims of two or three replicas sharing one %s store', (run) => {
  it('a due retry is claimed by one replica at a time: the other neither sends it nor wins the claim', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const held = gate();
    const onA = scriptedSender('mail', [failed, () => held.answer()]);
    const onB = scriptedSender('mail', [dispatched]);
    const a = await run.start(clock.now, [onA.sender]);
    const b = await run.start(clock.now, [onB.sender]);
    const { invitation } = await a.governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'retry@example.test',
      roles: ['member'],
    });
    const invitationId = invitation!.invitationId;
    await a.dispatcher.dispatch({ tenantId: 'acme', invitationId, channel: 'email' });
    // Both replicas read the same due entry; two claims on its version: exactly one wins.
    const [due] = await a.queue.due(10);
    const [dueOnB] = await b.queue.due(10);
    expect(dueOnB).toEqual(due);
    const claims = await Promise.all([a.queue.claim(due!), b.queue.claim(dueOnB!)]);
    expect([...claims].sort()).toEqual(['claimed', 'lost']);
    const winner = claims[0] === 'claimed' ? a : b;
    await winner.queue.release(due!.key);

    // A's pass claims the entry and sends (held); B's pass meanwhile finds nothing due.
    const passOnA = a.retryRunner.retryPending();
    await pollUntil(
      async () => onA.calls.length,
      (calls) => calls === 2,
      withinBound,
    );
    expect(await b.retryRunner.retryPending()).toMatchObject({ status: 'completed', attempted: 0 });
    expect(onB.calls).toHaveLength(0);
    held.open(dispatched);
    expect(await passOnA).toMatchObject({ status: 'completed', attempted: 1, succeeded: 1, takenOver: 0 });
    expect(await b.queue.due(10)).toEqual([]);
    expect(await a.queue.store.count()).toBe(0);
  });

  it('an owner frozen mid-send is taken over after the lease by exactly one of the other replicas, once', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const frozen = gate();
    const onA = scriptedSender('mail', [failed, () => frozen.answer()]);
    const onB = scriptedSender('mail', [dispatched]);
    const onC = scriptedSender('mail', [dispatched]);
    const a = await run.start(clock.now, [onA.sender]);
    const b = await run.start(clock.now, [onB.sender]);
    const c = await run.start(clock.now, [onC.sender]);
    const { invitation } = await a.governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'lost@example.test',
      roles: ['member'],
    });
    const invitationId = invitation!.invitationId;
    await a.dispatcher.dispatch({ tenantId: 'acme', invitationId, channel: 'email' });
    // A claims the entry and never answers (a killed replica leaves its claim behind).
    const passOnA = a.retryRunner.retryPending();
    await pollUntil(
      async () => onA.calls.length,
      (calls) => calls === 2,
      withinBound,
    );
    const [claimed] = await b.queue.store.list();
    expect(claimed!.value).toMatchObject({ owner: a.queue.ownerId, attempts: 1 });

    // Inside the lease nobody else retries it.
    clock.advance(119);
    const early = await Promise.all([b.retryRunner.retryPending(), c.retryRunner.retryPending()]);
    expect(early.map((pass) => pass.status === 'completed' && pass.attempted)).toEqual([0, 0]);

    // After the lease, B and C race for it: one takes it over (the lost attempt counted), once.
    clock.advance(2);
    const late = await Promise.all([b.retryRunner.retryPending(), c.retryRunner.retryPending()]);
    const takenOver = late.map((pass) => (pass.status === 'completed' ? pass.takenOver : -1));
    expect([...takenOver].sort()).toEqual([0, 1]);
    expect(onB.calls.length + onC.calls.length).toBe(1);
    const sent = [...onB.calls, ...onC.calls][0]!;
    expect(sent.attempt).toBe(3);
    expect(await b.queue.store.count()).toBe(0);
    const taker = takenOver[0] === 1 ? b : c;
    expect(taker.surface('tenant-invitations')).toMatchObject({ retryClaimTakenOverTotal: 1 });
    expect((await b.governance.getInvitation('acme', invitationId))?.status).toBe('sent');

    // A wakes up: its late answer finds the entry gone and sends nothing more.
    frozen.open({ outcome: 'sender-failed', reason: 'http-status-503', retryable: false });
    await passOnA;
    expect(onB.calls.length + onC.calls.length).toBe(1);
    expect(await c.queue.store.count()).toBe(0);
  });

  it('a replica killed (SIGKILL) mid-send leaves its claim; after the lease one replica takes the entry over', async () => {
    if (!run.available) return;
    // Real time: the child process stamps its lease with the system clock.
    const clock = sharedClock(new Date());
    const onA = scriptedSender('mail', [failed, dispatched]);
    const onB = scriptedSender('mail', [dispatched]);
    const a = await run.start(clock.now, [onA.sender]);
    const { invitation } = await a.governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: 'killed@example.test',
      roles: ['member'],
    });
    const invitationId = invitation!.invitationId;
    await a.dispatcher.dispatch({ tenantId: 'acme', invitationId, channel: 'email' });

    const holder = startFixture(path.resolve(__dirname, '..'), 'retry-claim-holder.ts', {
      ...run.namespace.environment,
      CONTENT_ROOT: mkdtempSync(path.join(os.tmpdir(), 'governance-claim-holder-')),
    });
    try {
      await holder.waitForLine('sending attempt 2', 60_000);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
    const [claimed] = await a.queue.store.list();
    expect(claimed!.value.owner).toEqual(expect.any(String));
    expect(claimed!.value.owner).not.toBe(a.queue.ownerId);
    expect(claimed!.value.attempts).toBe(1);

    const b = await run.start(clock.now, [onB.sender]);
    const early = await Promise.all([a.retryRunner.retryPending(), b.retryRunner.retryPending()]);
    expect(early.map((pass) => pass.status === 'completed' && pass.attempted)).toEqual([0, 0]);

    clock.set(new Date(Date.parse(claimed!.value.leaseExpiresAtUtc!) + 1000));
    const late = await Promise.all([a.retryRunner.retryPending(), b.retryRunner.retryPending()]);
    const takenOver = late.map((pass) => (pass.status === 'completed' ? pass.takenOver : -1));
    expect([...takenOver].sort()).toEqual([0, 1]);
    const retried = [...onA.calls.slice(1), ...onB.calls];
    expect(retried.map((call) => call.attempt)).toEqual([3]);
    expect(await b.queue.store.count()).toBe(0);
    expect((await b.governance.getInvitation('acme', invitationId))?.status).toBe('sent');
    // Nothing is left for a later pass.
    clock.advance(3600);
    const after = await Promise.all([a.retryRunner.retryPending(), b.retryRunner.retryPending()]);
    expect(after.map((pass) => pass.status === 'completed' && pass.attempted)).toEqual([0, 0]);
  }, 90_000);

  /** Invites someone on `replica` and dispatches once (failing): a due entry in the shared retry queue. */
  async function queuedRetry(replica: Replica, inviteeId: string) {
    const { invitation } = await replica.governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId,
      roles: ['member'],
    });
    const invitationId = invitation!.invitationId;
    await replica.dispatcher.dispatch({ tenantId: 'acme', invitationId, channel: 'email' });
    return invitationId;
  }

  it('a send three times longer than the lease keeps its claim (renewed): no other replica takes it over', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const slow = gate();
    const onA = scriptedSender('mail', [failed, () => slow.answer()]);
    const onB = scriptedSender('mail', [dispatched]);
    const renewFast = { InvitationDeliveryRetryLeaseRenewMilliseconds: 100 };
    const a = await run.start(clock.now, [onA.sender], renewFast);
    const b = await run.start(clock.now, [onB.sender], renewFast);
    const invitationId = await queuedRetry(a, 'slow@example.test');
    const passOnA = a.retryRunner.retryPending();
    await pollUntil(
      async () => onA.calls.length,
      (calls) => calls === 2,
      withinBound,
    );
    // 3 x 120 s of lease time go by while the send runs; A renews within each step, and B's passes leave it.
    for (let step = 0; step < 6; step++) {
      clock.advance(60);
      const renewedUntil = clock.now().getTime() + 120_000;
      const [entry] = await pollUntil(
        () => b.queue.store.list(),
        (entries) => Date.parse(entries[0]?.value.leaseExpiresAtUtc ?? '') >= renewedUntil,
        withinBound,
      );
      expect(entry!.value).toMatchObject({ owner: a.queue.ownerId, attempts: 1 });
      expect(await b.retryRunner.retryPending()).toMatchObject({ attempted: 0, takenOver: 0 });
    }
    expect(onB.calls).toHaveLength(0);
    expect(onA.calls[1]!.signal.aborted).toBe(false);
    slow.open(dispatched);
    expect(await passOnA).toMatchObject({ attempted: 1, succeeded: 1, claimLost: 0, takenOver: 0 });
    expect(await a.queue.store.count()).toBe(0);
    expect((await b.governance.getInvitation('acme', invitationId))?.status).toBe('sent');
    expect(a.surface('tenant-invitations')).toMatchObject({
      retryClaimRenewMilliseconds: 100,
      retryClaimLostDuringSendTotal: 0,
    });
  });

  it('a claim lost while its send runs (taken over after the lease): the send is aborted and its outcome not recorded', async () => {
    if (!run.available) return;
    const clock = sharedClock();
    const stuck = gate();
    const onA = scriptedSender('mail', [failed, () => stuck.answer()]);
    const onB = scriptedSender('mail', [dispatched]);
    // A renews every 5 s of real time: the lease (120 s of the shared clock) ends before its first renewal.
    const a = await run.start(clock.now, [onA.sender], {
      InvitationDeliveryRetryLeaseRenewMilliseconds: 5000,
    });
    const b = await run.start(clock.now, [onB.sender]);
    const invitationId = await queuedRetry(a, 'lost-claim@example.test');
    const passOnA = a.retryRunner.retryPending();
    await pollUntil(
      async () => onA.calls.length,
      (calls) => calls === 2,
      withinBound,
    );
    clock.advance(121);
    expect(await b.retryRunner.retryPending()).toMatchObject({ attempted: 1, succeeded: 1, takenOver: 1 });
    const recordedByB = await b.dispatcher.runState('acme', invitationId);
    // A's next renewal is refused by compare-and-set: its send's signal aborts at once.
    const signal = onA.calls[1]!.signal;
    await pollUntil(
      async () => signal.aborted,
      (aborted) => aborted,
      withinBound,
    );
    expect(signal.reason).toMatchObject({ code: 'LEASE_LOST', reason: 'taken-over' });
    // The sender answers late anyway (a message may have gone out): A records nothing under the lost claim.
    stuck.open({ outcome: 'sender-failed', reason: 'http-status-503', retryable: true });
    expect(await passOnA).toMatchObject({ attempted: 1, claimLost: 1, rescheduled: 0, succeeded: 0 });
    expect(await a.queue.store.count()).toBe(0);
    expect(await a.dispatcher.runState('acme', invitationId)).toEqual(recordedByB);
    expect(a.surface('tenant-invitations')).toMatchObject({ retryClaimLostDuringSendTotal: 1 });
    expect(
      a.logger.records.filter(
        (record) => record.outcome === 'claim-lost' && record.lostReason === 'taken-over',
      ),
    ).toHaveLength(1);
    expect(onB.calls).toHaveLength(1);
  }, 30_000);
});
