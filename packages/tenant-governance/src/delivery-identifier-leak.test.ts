import { scriptedSender, startDelivery } from './delivery-test-support';

// Distinctive identifiers of delivery and verification: none may appear in a surface, the snapshot,
// diagnostics, the story, a log record or an error message.
const invitee = 'invitee-dz41x@leak.test';
const recipient = 'recipient-dz42x@leak.test';
const metadataRecipient = 'meta-dz43x@leak.test';
const providerMessage = 'provider-msg-dz44x';
const providerEvent = 'provider-event-dz45x';
const domain = 'domain-dz46x.test';

it('delivery, reconciliation and domain verification expose no invitation, recipient, message, domain or token identifier', async () => {
  const flaky = scriptedSender('flaky', [
    {
      outcome: 'sender-failed',
      reason: 'http-status-503',
      metadata: { echoedRecipient: recipient, httpStatus: 503 },
    },
    { outcome: 'dispatched', providerMessageId: providerMessage, metadata: { note: `sent to ${recipient}` } },
  ]);
  const run = await startDelivery(
    {
      EnableInvitationDeliveryRetryQueue: true,
      InvitationDeliveryRetryDelaySeconds: 0,
      DomainVerification: { CollectionTimeoutSeconds: 2 },
    },
    {
      senders: [flaky.sender],
      extensions: {
        httpFilePort: 9,
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all
            ? callback(null, [{ address: '127.0.0.1', family: 4 }])
            : callback(null, '127.0.0.1', 4)) as never,
      },
    },
  );
  try {
    const invitation = await run.invite(invitee, 'acme', { recipientEmail: metadataRecipient });
    const ids = [
      invitee,
      recipient,
      metadataRecipient,
      providerMessage,
      providerEvent,
      domain,
      invitation.invitationId,
    ];
    const errors: string[] = [];
    const first = await run.dispatcher.dispatch({
      tenantId: 'acme',
      invitationId: invitation.invitationId,
      metadata: { recipientEmail: recipient },
    });
    expect(first.outcomes[0].retryQueued).toBe(true);
    expect(flaky.calls[0].recipient).toBe(recipient);
    expect(await run.retryRunner.retryPending()).toMatchObject({ succeeded: 1 });
    await run.status.submit([
      {
        providerKey: 'sendgrid',
        providerEventId: providerEvent,
        tenantId: 'acme',
        invitationId: invitation.invitationId,
        status: 'bounced',
        providerMessageId: providerMessage,
      },
      {
        providerKey: 'sendgrid',
        providerEventId: `${providerEvent}-b`,
        tenantId: 'acme',
        invitationId: 'missing-dz47x',
        status: 'delivered',
      },
    ]);
    expect(await run.status.attention()).toHaveLength(1);
    await run.governance.declareDomain({ tenantId: 'acme', domainName: domain });
    const { challenge } = await run.domains.issueChallenge({
      tenantId: 'acme',
      domainName: domain,
      method: 'http-file',
    });
    ids.push(challenge.token, challenge.challengeId);
    expect(await run.domains.verify('acme', domain)).toMatchObject({ outcome: 'collection-failed' });
    await run.domains
      .issueChallenge({ tenantId: 'acme', domainName: domain, method: 'dns-txt' })
      .catch((error: Error) => errors.push(JSON.stringify({ ...error, text: error.message })));
    await run.dispatcher
      .dispatch({ tenantId: 'acme', invitationId: `ghost-${invitation.invitationId}` })
      .catch((error: Error) => errors.push(JSON.stringify({ ...error, text: error.message })));
    await run.domains
      .verify('globex', domain)
      .catch((error: Error) => errors.push(JSON.stringify({ ...error, text: error.message })));
    expect(errors).toHaveLength(3);

    const surfaces = Object.fromEntries(
      run.engine.technologySurfaces().map((surface) => [surface.id, surface.metadata]),
    );
    // The surfaces saw the activity: the check is not vacuous.
    expect(surfaces['tenant-invitations']).toMatchObject({
      deliveryRunCount: 2,
      statusReportedCount: 1,
      latestStatus: 'bounced',
      observationCount: 1,
      senderIds: ['flaky'],
    });
    expect(surfaces['tenant-domain-ownership']).toMatchObject({
      publishedHttpProofCount: 1,
      statusBreakdown: { 'pending-verification': 1 },
    });
    const runs = await run.dispatcher.runState('acme', invitation.invitationId);
    const outputs = {
      surfaces: JSON.stringify(run.engine.technologySurfaces()),
      snapshot: JSON.stringify(run.engine.snapshot()),
      diagnostics: JSON.stringify(run.engine.diagnostics()),
      story: JSON.stringify(run.engine.runtimeStory()),
      logs: run.logger.text(),
      errors: errors.join('\n'),
    };
    for (const [name, text] of Object.entries(outputs)) {
      for (const id of ids) {
        if (text.toLowerCase().includes(id.toLowerCase())) throw new Error(`${name} exposes ${id}`);
      }
    }
    // Run state keeps ids (it is the record) but never an address or a body.
    for (const address of [invitee, recipient, metadataRecipient])
      expect(JSON.stringify(runs)).not.toContain(address);
  } finally {
    await run.engine.stop();
  }
});

it('the delivery fields of the surfaces have the same keys registered or not', async () => {
  const { deliveryNotRegisteredFields, domainVerificationNotRegisteredFields } =
    await import('./governance-surfaces');
  const { governanceDeliveryPostureKey } = await import('./delivery-seams');
  const run = await startDelivery();
  try {
    const posture = run.engine.resolve(governanceDeliveryPostureKey)!;
    expect(Object.keys(posture.invitationFields()).sort()).toEqual(
      Object.keys(deliveryNotRegisteredFields).sort(),
    );
    expect(Object.keys(posture.domainFields()).sort()).toEqual(
      Object.keys(domainVerificationNotRegisteredFields).sort(),
    );
  } finally {
    await run.engine.stop();
  }
});
