import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, addTenantGovernanceDelivery } from '@corekit/tenant-governance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { z } from 'zod';
import {
  createLeakSeeds,
  defineInvitationSender,
  deterministicDeliveryKey,
  engineOutputs,
  findLeaks,
  recipientMetadata,
  registerInvitationSender,
  renderInvitationMessage,
  renderTemplate,
  senderBaseShape,
  senderOutcome,
} from './index';

it('renders the placeholders and leaves other braces alone', () => {
  const values = { tenantId: 'acme', invitationId: 'inv-1', roles: ['member', 'viewer'] };
  expect(renderTemplate('{tenantId}/{invitationId}: {roles} {other} {acceptanceSecret}', values)).toBe(
    'acme/inv-1: member, viewer {other} {acceptanceSecret}',
  );
  expect(
    renderInvitationMessage(
      { SubjectTemplate: 'Join {tenantId}', TextBodyTemplate: 'As {roles}' },
      { invitation: values },
    ),
  ).toEqual({ subject: 'Join acme', text: 'As member, viewer', html: null });
  expect(
    deterministicDeliveryKey({ tenantId: 'a', invitationId: 'b', channel: 'email', senderId: 's' }),
  ).toBe(deterministicDeliveryKey({ tenantId: 'a', invitationId: 'b', channel: 'email', senderId: 's' }));
  expect(
    deterministicDeliveryKey({ tenantId: 'a/b', invitationId: 'c', channel: 'email', senderId: 's' }),
  ).not.toBe(
    deterministicDeliveryKey({ tenantId: 'a', invitationId: 'b/c', channel: 'email', senderId: 's' }),
  );
});

it('binds the shared sender fields with defaults and refuses a bad sender id', () => {
  const schema = z.object(senderBaseShape('kit'));
  expect(schema.parse({})).toMatchObject({ Enabled: true, SenderId: 'kit', SupportedChannels: ['email'] });
  expect(schema.safeParse({ SenderId: 'Bad Id' }).success).toBe(false);
});

it('a kit sender suppresses other channels, resolves the recipient by its key, and leaks no seeded secret or body', async () => {
  const seeds = createLeakSeeds(['apiKey', 'textBody', 'recipientEmail', 'inviteeEmail']);
  const { builder, logger } = createTestEngineBuilder();
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
  const governance = addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  const delivery = addTenantGovernanceDelivery(builder, {
    EnableInvitationDeliveryRetryQueue: true,
    InvitationDeliveryRetryDelaySeconds: 0,
  });
  const seen: Array<{ to: string; text: string }> = [];
  const options = z.object(senderBaseShape('kit')).parse({
    RecipientEmailMetadataKey: 'to',
    TextBodyTemplate: `${seeds.values.textBody} {invitationId}`,
  });
  builder.addSecret(seeds.values.apiKey);
  registerInvitationSender(
    builder,
    defineInvitationSender(options, async (call) => {
      const message = renderInvitationMessage(options, call);
      seen.push({ to: call.recipientAddress, text: message.text });
      if (seen.length === 1)
        throw new Error(`failed with ${seeds.values.apiKey} for ${call.recipientAddress}`);
      return senderOutcome.dispatched('pm-1', { kitRecipient: call.recipientAddress, kitStatus: 202 });
    }),
  );
  const engine = builder.build();
  await engine.start();
  try {
    const { invitation } = await governance.execute({
      command: 'invite',
      tenantId: 'acme',
      inviteeKind: 'email',
      inviteeId: seeds.values.inviteeEmail,
      roles: ['member'],
    });
    const dispatchMetadata = { to: seeds.values.recipientEmail };
    const first = await delivery.dispatcher.dispatch({
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
      metadata: dispatchMetadata,
    });
    expect(first.outcomes[0]).toMatchObject({
      outcome: 'sender-failed',
      reason: 'transport-error',
      retryQueued: true,
    });
    const second = await delivery.retryRunner.retryPending();
    expect(second).toMatchObject({ status: 'completed', succeeded: 1 });
    expect(seen.map((call) => call.to)).toEqual([seeds.values.recipientEmail, seeds.values.recipientEmail]);
    const sms = await delivery.dispatcher.dispatch({
      tenantId: 'acme',
      invitationId: invitation!.invitationId,
      channel: 'sms',
    });
    expect(sms.outcomes[0]).toMatchObject({
      outcome: 'suppressed',
      reason: 'channel-unsupported',
      decision: 'provider-managed',
    });
    const runs = await delivery.dispatcher.runState('acme', invitation!.invitationId);
    expect(runs.find((run) => run.channel === 'email')?.metadata).toEqual({
      kitStatus: 202,
      droppedMetadataKeys: 1,
    });
    const leaks = findLeaks(
      {
        values: {
          apiKey: seeds.values.apiKey,
          textBody: seeds.values.textBody,
          recipientEmail: seeds.values.recipientEmail,
        },
      },
      { ...engineOutputs(engine, logger.text()), first, sms, runs },
    );
    expect(leaks).toEqual([]);
    // The probe itself finds what it seeded.
    expect(findLeaks(seeds, { sample: `x ${seeds.values.apiKey.toUpperCase()}` })).toEqual([
      { seed: 'apiKey', output: 'sample' },
    ]);
    expect(findLeaks(seeds, { sample: 'nothing seeded here' })).toEqual([]);
    expect(findLeaks(seeds, { sample: `x ${seeds.values.apiKey.slice(-16)}` })).toEqual([
      { seed: 'apiKey', output: 'sample' },
    ]);
  } finally {
    await engine.stop();
  }
});

it('refuses to register a sender without the delivery registration', () => {
  const { builder } = createTestEngineBuilder();
  expect(() =>
    registerInvitationSender(builder, {
      id: 'x',
      supportedChannels: ['email'],
      send: async () => senderOutcome.dispatched(null),
    }),
  ).toThrow(/GOVERNANCE_DELIVERY_NOT_REGISTERED|addTenantGovernanceDelivery/);
});

it('hands the send function the recipient key it looked up, and recipientMetadata records the source and key, never the address', async () => {
  const options = z.object(senderBaseShape('kit')).parse({ RecipientEmailMetadataKey: 'to' });
  const recorded: Array<Record<string, string>> = [];
  const sender = defineInvitationSender(options, async (call) => {
    recorded.push(recipientMetadata('kit', call));
    return senderOutcome.dispatched('pm-1', recipientMetadata('kit', call));
  });
  const invitation = {
    tenantId: 'acme',
    invitationId: 'inv-1',
    inviteeKind: 'email' as const,
    inviteeId: 'invitee@example.test',
    roles: ['member'],
    metadata: {},
  };
  const request = (metadata: Record<string, string>) =>
    ({
      invitation,
      channel: 'email',
      metadata,
      recipient: null,
      dispatchId: 'd-1',
      attempt: 1,
      signal: new AbortController().signal,
    }) as unknown as Parameters<typeof sender.send>[0];
  await sender.send(request({ to: 'dispatch@example.test' }));
  await sender.send(request({}));
  expect(recorded).toEqual([
    { kitRcptSource: 'dispatch-metadata', kitRcptMetadataKey: 'to' },
    { kitRcptSource: 'invitee-id', kitRcptMetadataKey: 'to' },
  ]);
});
