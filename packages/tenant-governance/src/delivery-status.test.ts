import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deliveryEventIds } from './delivery-event-ids';
import { supersedes } from './delivery-status-book';
import { scriptedSender, startDelivery } from './delivery-test-support';

const at = (minute: number) => `2030-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const ok = { outcome: 'dispatched' as const, providerMessageId: 'msg-1' };

it('precedence: terminal statuses never regress, later terminals of higher rank win, older non-terminals are kept out', () => {
  expect(
    supersedes({ status: null, observedAtUtc: null }, { status: 'deferred', observedAtUtc: at(1) }),
  ).toBe(true);
  expect(
    supersedes({ status: 'accepted', observedAtUtc: at(1) }, { status: 'deferred', observedAtUtc: at(2) }),
  ).toBe(true);
  expect(
    supersedes({ status: 'deferred', observedAtUtc: at(2) }, { status: 'accepted', observedAtUtc: at(1) }),
  ).toBe(false);
  expect(
    supersedes({ status: 'deferred', observedAtUtc: at(5) }, { status: 'delivered', observedAtUtc: at(1) }),
  ).toBe(true);
  expect(
    supersedes({ status: 'delivered', observedAtUtc: at(1) }, { status: 'deferred', observedAtUtc: at(9) }),
  ).toBe(false);
  expect(
    supersedes({ status: 'delivered', observedAtUtc: at(1) }, { status: 'accepted', observedAtUtc: at(9) }),
  ).toBe(false);
  expect(
    supersedes({ status: 'delivered', observedAtUtc: at(1) }, { status: 'bounced', observedAtUtc: at(2) }),
  ).toBe(true);
  expect(
    supersedes({ status: 'delivered', observedAtUtc: at(1) }, { status: 'suppressed', observedAtUtc: at(2) }),
  ).toBe(true);
  expect(
    supersedes({ status: 'suppressed', observedAtUtc: at(1) }, { status: 'delivered', observedAtUtc: at(2) }),
  ).toBe(false);
  expect(
    supersedes({ status: 'bounced', observedAtUtc: at(1) }, { status: 'failed', observedAtUtc: at(2) }),
  ).toBe(false);
});

it('reconciles observations onto invitations, skips duplicates and unknown invitations, and enforces provider-message match', async () => {
  const run = await startDelivery({}, { senders: [scriptedSender('mail', [ok]).sender] });
  try {
    const invitation = await run.invite();
    await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId });
    const base = {
      providerKey: 'sendgrid',
      tenantId: 'acme',
      invitationId: invitation.invitationId,
      providerMessageId: 'msg-1',
    };
    const result = await run.status.submit([
      { ...base, providerEventId: 'e1', status: 'accepted', observedAtUtc: at(1) },
      { ...base, providerEventId: 'e2', status: 'delivered', observedAtUtc: at(3) },
      { ...base, providerEventId: 'e3', status: 'deferred', observedAtUtc: at(2) },
      { ...base, providerEventId: 'e1', status: 'accepted', observedAtUtc: at(1) },
      { ...base, providerEventId: 'e4', status: 'delivered', invitationId: 'unknown' },
      { ...base, providerEventId: 'e5', status: 'opened' },
    ]);
    expect(result.outcomes.map((item) => [item.observationId, item.outcome, item.reconciledStatus])).toEqual([
      ['sendgrid:e1', 'reconciled', 'accepted'],
      ['sendgrid:e2', 'reconciled', 'delivered'],
      ['sendgrid:e3', 'recorded-precedence-kept', 'delivered'],
      ['sendgrid:e1', 'duplicate', undefined],
      ['sendgrid:e4', 'unknown-invitation', undefined],
      [null, 'invalid', undefined],
    ]);
    expect(result).toMatchObject({ accepted: 3, duplicateEvents: 1, rejected: 2 });
    expect(await run.status.getStatus('acme', invitation.invitationId)).toMatchObject({
      status: 'delivered',
      statusObservationId: 'sendgrid:e2',
      observationCount: 3,
      dispatchCount: 1,
    });
    expect(await run.status.hasObservation('sendgrid:e3')).toBe(true);
    const mismatch = await run.status.submit(
      [{ ...base, providerEventId: 'e6', status: 'bounced', providerMessageId: 'other' }],
      {
        requireProviderMessageMatch: true,
      },
    );
    expect(mismatch.outcomes[0].outcome).toBe('provider-message-mismatch');
    expect(run.logger.withEventId(deliveryEventIds.statusReconciled)).toHaveLength(2);
    expect(run.logger.withEventId(deliveryEventIds.statusPrecedenceKept)).toHaveLength(1);
    expect(run.logger.withEventId(deliveryEventIds.observationDuplicate)).toHaveLength(1);
    expect(run.logger.withEventId(deliveryEventIds.observationRejected)).toHaveLength(3);
  } finally {
    await run.engine.stop();
  }
});

it('with provider-message match required, a message whose provider answered no id is matched by the core message id the sender reported', async () => {
  const noProviderId = { outcome: 'dispatched' as const, providerMessageId: null, messageId: 'core-msg-1' };
  const run = await startDelivery({}, { senders: [scriptedSender('graph', [noProviderId]).sender] });
  try {
    const invitation = await run.invite();
    await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: invitation.invitationId });
    const base = { providerKey: 'neutral', tenantId: 'acme', invitationId: invitation.invitationId };
    const result = await run.status.submit(
      [
        { ...base, providerEventId: 'n1', status: 'delivered', providerMessageId: 'core-msg-1' },
        { ...base, providerEventId: 'n2', status: 'bounced', providerMessageId: 'core-msg-2' },
        { ...base, providerEventId: 'n3', status: 'bounced' },
      ],
      { requireProviderMessageMatch: true },
    );
    expect(result.outcomes.map((item) => item.outcome)).toEqual([
      'reconciled',
      'provider-message-mismatch',
      'provider-message-mismatch',
    ]);
    expect(await run.status.getStatus('acme', invitation.invitationId)).toMatchObject({
      status: 'delivered',
      dispatchedProviderMessageIds: ['core-msg-1'],
    });
  } finally {
    await run.engine.stop();
  }
});

it('produces every attention category with hints and actions, and filters observations by each dimension', async () => {
  const run = await startDelivery(
    { InvitationDeliveryStuckDeferredSeconds: 600, InvitationDeliveryNoStatusAfterDispatchSeconds: 1200 },
    { senders: [scriptedSender('mail', [ok]).sender] },
  );
  try {
    const ids: Record<string, string> = {};
    for (const name of ['bounced', 'suppressed', 'failed', 'deferred', 'silent', 'fine', 'broken']) {
      const invitation = await run.invite(`${name}@example.test`, name === 'fine' ? 'globex' : 'acme');
      ids[name] = invitation.invitationId;
      if (name !== 'broken')
        await run.dispatcher.dispatch({
          tenantId: invitation.tenantId,
          invitationId: invitation.invitationId,
        });
    }
    const hard = scriptedSender('hard', [
      { outcome: 'sender-failed', reason: 'recipient-missing', retryable: false },
    ]);
    run.senders.add(hard.sender);
    await run.dispatcher.dispatch({ tenantId: 'acme', invitationId: ids.broken, senderIds: ['hard'] });
    const observe = (name: string, status: string, provider = 'sendgrid', tenantId = 'acme') => ({
      providerKey: provider,
      providerEventId: `${name}-${status}`,
      tenantId,
      invitationId: ids[name],
      status,
      providerMessageId: `pm-${name}`,
      observedAtUtc: '2030-01-01T00:00:00.000Z',
    });
    await run.status.submit([
      observe('bounced', 'bounced'),
      observe('suppressed', 'suppressed', 'mailgun'),
      observe('failed', 'failed', 'amazon-ses-sns'),
      observe('deferred', 'deferred'),
      observe('fine', 'delivered', 'mailgun', 'globex'),
    ]);
    expect((await run.status.attention()).map((item) => item.category).sort()).toEqual([
      'bounced',
      'dispatch-failed',
      'failed',
      'suppressed',
    ]);
    run.advance(1500);
    const attention = await run.status.attention();
    expect(attention.map((item) => item.category).sort()).toEqual([
      'bounced',
      'dispatch-failed',
      'failed',
      'no-status-after-dispatch',
      'stuck-deferred',
      'suppressed',
    ]);
    expect(attention.find((item) => item.category === 'no-status-after-dispatch')).toMatchObject({
      invitationId: ids.silent,
      actions: ['verify-status-callback-configuration', 'resend-invitation'],
    });
    expect(await run.status.attention({ remediationAction: 'resend-invitation' })).toHaveLength(3);
    expect(await run.status.attention({ tenantId: 'globex' })).toEqual([]);

    const all = await run.status.query({});
    expect(all.totalMatched).toBe(5);
    expect(all.rollups.byProvider).toEqual({ sendgrid: 2, mailgun: 2, 'amazon-ses-sns': 1 });
    expect(all.rollups.byTenant).toEqual({ acme: 4, globex: 1 });
    expect(all.rollups.byAttentionCategory).toEqual({
      bounced: 1,
      suppressed: 1,
      failed: 1,
      'stuck-deferred': 1,
    });
    expect(all.attention).toHaveLength(6);
    expect((await run.status.query({ tenantId: 'globex' })).observations.map((o) => o.status)).toEqual([
      'delivered',
    ]);
    expect((await run.status.query({ invitationId: ids.bounced })).totalMatched).toBe(1);
    expect((await run.status.query({ providerKey: 'mailgun' })).totalMatched).toBe(2);
    expect((await run.status.query({ status: 'deferred' })).observations[0].invitationId).toBe(ids.deferred);
    expect((await run.status.query({ providerMessageId: 'pm-failed' })).observations[0].status).toBe(
      'failed',
    );
    expect((await run.status.query({ fromUtc: '2030-01-01T00:00:01Z' })).totalMatched).toBe(0);
    expect((await run.status.query({ toUtc: '2030-01-01T00:00:00Z' })).totalMatched).toBe(5);
    for (const category of ['bounced', 'suppressed', 'failed', 'stuck-deferred'] as const) {
      const drill = await run.status.query({ attentionCategory: category });
      expect(drill.totalMatched).toBe(1);
      expect(drill.attention.map((item) => item.category)).toEqual([category]);
    }
    expect(
      (await run.status.query({ attentionCategory: 'no-status-after-dispatch' })).attention,
    ).toHaveLength(1);
    expect(
      (await run.status.query({ remediationAction: 'use-alternate-channel' })).observations.map(
        (o) => o.status,
      ),
    ).toEqual(['suppressed']);
    const page = await run.status.query({ limit: 2 });
    expect(page).toMatchObject({ limit: 2, truncated: true, totalMatched: 5 });
    expect(page.observations).toHaveLength(2);
  } finally {
    await run.engine.stop();
  }
});

it('keeps the observation history within its limit, in a local file that survives a restart', async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'observations-')), 'observations.json');
  const options = {
    InvitationDeliveryObservationHistoryLimit: 10,
    InvitationDeliveryObservationStoreFilePath: file,
  };
  const configuration = {
    Engine: { Stores: { Provider: 'File', Directory: path.join(path.dirname(file), 'stores') } },
  };
  const first = await startDelivery(options, { configuration });
  const invitation = await first.invite();
  for (let index = 0; index < 12; index++) {
    first.advance(1);
    await first.status.submit([
      {
        providerKey: 'http',
        providerEventId: `e${index}`,
        tenantId: 'acme',
        invitationId: invitation.invitationId,
        status: 'deferred',
      },
    ]);
  }
  expect(first.logger.withEventId(deliveryEventIds.observationHistoryTrimmed)).toHaveLength(2);
  await first.engine.stop();
  const second = await startDelivery(options, { configuration });
  try {
    const result = await second.status.query({ limit: 100 });
    expect(result.totalMatched).toBe(10);
    expect(result.observations.map((o) => o.providerEventId).at(-1)).toBe('e2');
    expect(await second.status.getStatus('acme', invitation.invitationId)).toMatchObject({
      status: 'deferred',
      observationCount: 12,
    });
    expect(
      second.engine.technologySurfaces().find((s) => s.id === 'tenant-invitations')!.metadata,
    ).toMatchObject({
      observationStoreKind: 'local-file',
      observationHistoryLimit: 10,
      observationCount: 10,
    });
  } finally {
    await second.engine.stop();
  }
});

it('the transport schemas accept a dispatch body and observation filters, and refuse unknown fields', async () => {
  const { invitationDispatchRequestSchema, deliveryObservationQuerySchema } =
    await import('./delivery-request-schemas');
  expect(invitationDispatchRequestSchema.parse({ tenantId: 'acme', invitationId: 'i-1' })).toEqual({
    tenantId: 'acme',
    invitationId: 'i-1',
    channel: 'email',
  });
  expect(
    invitationDispatchRequestSchema.safeParse({ tenantId: 'acme', invitationId: 'i', extra: 1 }).success,
  ).toBe(false);
  expect(
    deliveryObservationQuerySchema.parse({
      status: 'bounced',
      limit: '20',
      attentionCategory: 'stuck-deferred',
    }),
  ).toEqual({
    status: 'bounced',
    limit: 20,
    attentionCategory: 'stuck-deferred',
  });
  expect(deliveryObservationQuerySchema.safeParse({ status: 'opened' }).success).toBe(false);
  expect(deliveryObservationQuerySchema.safeParse({ sort: 'asc' }).success).toBe(false);
});
