import type { AddressInfo } from 'node:net';
import { engineOutputs } from '@corekit/sender-kit';
import { startSenderTestHost } from '@corekit/sender-test-host';
import { addMicrosoftGraphInvitationDelivery } from '@corekit/sender-graph';
import { addMailgunInvitationDelivery } from '@corekit/sender-mailgun';
import { addSendGridInvitationDelivery } from '@corekit/sender-sendgrid';
import { addAmazonSesInvitationDelivery } from '@corekit/sender-ses';
import { addSmtpInvitationDelivery } from '@corekit/sender-smtp';
import { startHttpFakeServer, type FakeHttpResponse } from '@corekit/testing/http-fake-server';
import { SMTPServer } from 'smtp-server';
import { addHttpInvitationDelivery } from './index';

/** One local fake answering every HTTP provider by path, the way each provider answers a success. */
function providerAnswer(path: string): FakeHttpResponse {
  if (path === '/hooks/invite') return { status: 202, headers: { 'X-Message-Id': 'hook-1' } };
  if (path === '/v3/mail/send') return { status: 202, headers: { 'X-Message-Id': 'sg-1' } };
  if (path === '/v3/mg.core.example/messages')
    return { status: 200, body: { id: '<mg-1@mg.core.example>', message: 'Queued' } };
  if (path === '/v2/email/outbound-emails') return { status: 200, body: { MessageId: 'ses-1' } };
  if (path === '/v1.0/me/sendMail') return { status: 202, headers: { 'request-id': 'graph-req-1' } };
  return { status: 404 };
}

it('dispatches one invitation through all six senders in one host, each message carrying its own acceptance secret, with no seeded secret, body, address or acceptance secret in any output', async () => {
  const fake = await startHttpFakeServer((request) => providerAnswer(request.path));
  const mails: string[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => (mails.push(Buffer.concat(chunks).toString()), callback()));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const host = await startSenderTestHost(
    (builder, seeds) => {
      const templates = {
        SubjectTemplate: `${seeds.values.subject} {tenantId}`,
        TextBodyTemplate: `${seeds.values.textBody} {invitationId} {roles}\ncode=[{acceptanceSecret}]`,
      };
      const from = { FromAddress: 'invitations@core.example' };
      addHttpInvitationDelivery(builder, {
        ...templates,
        Endpoint: `${fake.url}/hooks/invite`,
        SigningSecret: seeds.values.signingSecret,
      });
      addSmtpInvitationDelivery(builder, { ...templates, ...from, Host: '127.0.0.1', Port: smtpPort });
      addSendGridInvitationDelivery(builder, {
        ...templates,
        ...from,
        BaseUrl: fake.url,
        ApiKey: `SG.${seeds.values.apiKey}`,
      });
      addMailgunInvitationDelivery(builder, {
        ...templates,
        ...from,
        BaseUrl: fake.url,
        DomainName: 'mg.core.example',
        ApiKey: seeds.values.apiKey!,
      });
      addAmazonSesInvitationDelivery(
        builder,
        { ...templates, ...from, RegionSystemName: 'eu-west-1' },
        {
          clientConfig: {
            endpoint: fake.url,
            credentials: { accessKeyId: 'AKIATEST', secretAccessKey: seeds.values.awsSecret! },
          },
        },
      );
      addMicrosoftGraphInvitationDelivery(builder, {
        ...templates,
        BaseUrl: fake.url,
        AccessToken: seeds.values.accessToken,
      });
    },
    { seedNames: ['signingSecret', 'apiKey', 'awsSecret', 'accessToken'] },
  );
  try {
    const invitationId = await host.invite();
    const result = await host.dispatch(invitationId, {
      metadata: { recipientEmail: host.seeds.values.recipientEmail! },
    });
    expect(result.invitationStatus).toBe('sent');
    expect(
      Object.fromEntries(
        result.outcomes.map((outcome) => [outcome.senderId, [outcome.outcome, outcome.providerMessageId]]),
      ),
    ).toEqual({
      'http-webhook': ['dispatched', 'hook-1'],
      smtp: ['dispatched', expect.stringMatching(/^[0-9a-f]{32}@core\.example$/)],
      sendgrid: ['dispatched', 'sg-1'],
      mailgun: ['dispatched', '<mg-1@mg.core.example>'],
      'amazon-ses': ['dispatched', 'ses-1'],
      'microsoft-graph': ['dispatched', null],
    });
    expect(fake.requests.map((request) => request.path).sort()).toEqual(
      [
        '/hooks/invite',
        '/v1.0/me/sendMail',
        '/v2/email/outbound-emails',
        '/v3/mail/send',
        '/v3/mg.core.example/messages',
      ].sort(),
    );
    expect(mails).toHaveLength(1);
    // Every sender's message carries its own acceptance secret, and only the message does.
    const secretIn = (message: string) => /code=\[([A-Za-z0-9_-]{43})\]/.exec(message)?.[1];
    const secrets = [...fake.requests.map((request) => request.body), ...mails].map(secretIn);
    expect(secrets.every((secret) => secret !== undefined)).toBe(true);
    expect(new Set(secrets).size).toBe(6);
    const outputs = JSON.stringify({
      ...engineOutputs(host.engine, host.logger.text()),
      result,
      runs: await host.delivery.dispatcher.runState('acme', invitationId),
      invitation: await host.governance.getInvitation('acme', invitationId),
    });
    for (const secret of secrets) expect(outputs).not.toContain(secret);
    // Each is live on the invitation: the first accepts it, and then every other one reads as used.
    const [first, ...others] = secrets as string[];
    const accept = (acceptanceSecret: string) =>
      host.governance.execute({
        command: 'accept',
        tenantId: 'acme',
        invitationId,
        principalId: 'user-1',
        acceptanceSecret,
      });
    expect((await accept(first!)).invitation?.acceptanceMode).toBe('acceptance-secret');
    for (const secret of others) {
      await expect(accept(secret)).rejects.toMatchObject({ code: 'INVITATION_ACCEPTANCE_SECRET_USED' });
    }
    const eventIds = new Set(host.logger.records.map((record) => record.eventId));
    for (const id of [4550, 4551, 4558, 4559, 4560, 4561, 4566, 4567, 4572, 4573, 4576, 4577])
      expect(eventIds).toContain(id);
    expect(host.leaks()).toEqual([]);
  } finally {
    await host.stop();
    await fake.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
