import { OperationError } from '@corekit/abstractions';
import { deliveryEventIds } from './delivery-event-ids';
import { resolveInvitationRecipient, sanitizeSendMetadata } from './delivery-recipient';
import { scriptedSender, startDelivery } from './delivery-test-support';

const ok = { outcome: 'dispatched' as const, providerMessageId: 'pm-1', metadata: { httpStatus: 202 } };

it('dispatches through every registered sender, records each outcome truth and marks the invitation sent', async () => {
  const good = scriptedSender('good', [ok]);
  const sms = scriptedSender('sms-only', [ok], ['sms']);
  const broken = scriptedSender('broken', [new Error('boom person@example.test')]);
  const { engine, dispatcher, governance, invite, logger } = await startDelivery(
    { EnableInvitationDeliveryRetryQueue: true },
    {
      senders: [good.sender, sms.sender, broken.sender],
    },
  );
  try {
    const invitation = await invite();
    const result = await dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId });
    expect(result.channel).toBe('email');
    expect(result.invitationStatus).toBe('sent');
    expect(result.outcomes.map((o) => [o.senderId, o.outcome, o.reason, o.decision])).toEqual([
      ['good', 'dispatched', null, 'sender'],
      ['sms-only', 'suppressed', 'channel-unsupported', 'provider-managed'],
      ['broken', 'sender-failed', 'sender-exception', 'sender'],
    ]);
    expect(sms.calls).toHaveLength(0);
    // Recipient resolution: InviteeId for an email invitee.
    expect(good.calls[0].recipient).toBe('person@example.test');
    expect(good.calls[0].attempt).toBe(1);
    expect((await governance.getInvitation('acme', invitation.invitationId))?.status).toBe('sent');
    expect(logger.withEventId(deliveryEventIds.senderDispatched)).toHaveLength(1);
    expect(logger.withEventId(deliveryEventIds.senderSuppressed)).toHaveLength(1);
    expect(logger.withEventId(deliveryEventIds.senderFailed)).toHaveLength(1);
    // Run state: one record per sender, never the recipient address or the exception message.
    const runs = await dispatcher.runState('acme', invitation.invitationId);
    expect(runs.map((run) => [run.senderId, run.outcome, run.attempt, run.retryQueued])).toEqual([
      ['broken', 'sender-failed', 1, true],
      ['good', 'dispatched', 1, false],
      ['sms-only', 'suppressed', 1, false],
    ]);
    expect(JSON.stringify(runs)).not.toContain('person@example.test');
    expect(JSON.stringify(runs)).not.toContain('boom');
    expect(logger.text()).not.toContain('person@example.test');
    const surface = engine.technologySurfaces().find((s) => s.id === 'tenant-invitations')!;
    expect(surface.metadata).toMatchObject({
      senderCount: 3,
      senderIds: ['good', 'sms-only', 'broken'],
      deliveryRunCount: 1,
      deliveryRunOutcomeCounts: { dispatched: 1, suppressed: 1, 'sender-failed': 1, 'already-running': 0 },
      retryQueueEnabled: true,
      retryQueueCount: 1,
      perTenantRetryCounts: { acme: 1 },
    });
  } finally {
    await engine.stop();
  }
});

it('answers already-running for an overlapping dispatch of the same delivery and leaves it alone', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slow = scriptedSender('slow', [async () => (await gate, ok)]);
  const { engine, dispatcher, invite, logger } = await startDelivery({}, { senders: [slow.sender] });
  try {
    const invitation = await invite();
    const first = dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId });
    await new Promise((resolve) => setImmediate(resolve));
    const second = await dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId });
    expect(second.outcomes).toEqual([
      expect.objectContaining({ senderId: 'slow', outcome: 'already-running' }),
    ]);
    release();
    expect((await first).outcomes[0].outcome).toBe('dispatched');
    expect(slow.calls).toHaveLength(1);
    expect(logger.withEventId(deliveryEventIds.dispatchAlreadyRunning)).toHaveLength(1);
  } finally {
    await engine.stop();
  }
});

it('refuses unknown, closed and sender-less dispatches with stable codes', async () => {
  const { engine, dispatcher, governance, invite } = await startDelivery(
    {},
    { senders: [scriptedSender('a', [ok]).sender] },
  );
  try {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: OperationError) => error.code,
      );
    expect(await refusal(dispatcher.dispatch({ tenantId: 'acme', invitationId: 'nope' }))).toBe(
      'INVITATION_NOT_FOUND',
    );
    const invitation = await invite();
    expect(
      await refusal(
        dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId, senderIds: ['zz'] }),
      ),
    ).toBe('DELIVERY_NO_SENDERS');
    await governance.execute({ command: 'revoke', tenantId: 'acme', invitationId: invitation.invitationId });
    expect(
      await refusal(dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId })),
    ).toBe('INVITATION_NOT_DELIVERABLE');
  } finally {
    await engine.stop();
  }
});

it('resolves the recipient from dispatch metadata, then invitation metadata, then an email InviteeId', () => {
  const invitation = {
    inviteeKind: 'email' as const,
    inviteeId: 'invitee@example.test',
    metadata: { recipientEmail: 'meta@example.test' },
  };
  expect(resolveInvitationRecipient(invitation, { recipientEmail: 'dispatch@example.test' })).toBe(
    'dispatch@example.test',
  );
  expect(resolveInvitationRecipient(invitation, {})).toBe('meta@example.test');
  expect(resolveInvitationRecipient({ ...invitation, metadata: {} })).toBe('invitee@example.test');
  expect(resolveInvitationRecipient({ inviteeKind: 'user', inviteeId: 'u-1', metadata: {} })).toBeNull();
  expect(resolveInvitationRecipient({ ...invitation, metadata: { to: 'x@example.test' } }, {}, 'to')).toBe(
    'x@example.test',
  );
  expect(resolveInvitationRecipient({ ...invitation, metadata: { recipientEmail: 'not an address' } })).toBe(
    'invitee@example.test',
  );
});

it('keeps only safe metadata in run state', () => {
  expect(
    sanitizeSendMetadata(
      {
        httpStatus: 202,
        smtpRecipient: 'a@b.test',
        textBody: 'hello',
        note: 'sent to a@b.test',
        apiKey: 'k',
        tag: 'SECRETX',
        ok: true,
      },
      ['SECRETX'],
    ),
  ).toEqual({ httpStatus: 202, ok: true, droppedMetadataKeys: 5 });
});
