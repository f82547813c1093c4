// The sender ↔ callback pairs through the sample host: a sender section switched on by configuration (off by
// default), aimed at the provider's local fake, and the callbacks the sample maps, all over HTTP.
import { createHmac, createPrivateKey, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeContextValue } from '@corekit/callback-kit';
import { invitationDeliveryStatusKey } from '@corekit/tenant-governance';
import { signDeliveryStatusCallback } from '@corekit/tenant-governance-web';
import {
  graphMessageHeaders,
  mailgunEventDataFrom,
  neutralObservation,
  sendGridEventFrom,
  sesEventFrom,
  startGraphFake,
  startMailgunFake,
  startSendGridFake,
  startSesFake,
  startWebhookReceiverFake,
  webhookBodyFields,
} from '@corekit/testing/fakes/mail-providers';
import {
  describeSenderCallbackPair,
  type ProviderWebhook,
  type RecordingProvider,
  type SenderCallbackPairRun,
} from '@corekit/testing/sender-callback-pair';
import { deliveryCallbacksDemoCredentials } from './packs/delivery-callbacks-demo';
import { governanceDemoCredentials } from './packs/governance-web-demo';
import { createSampleHost } from './sample-host';

const authorization = `Bearer ${governanceDemoCredentials.bearerToken}`;
const callbacks = '/engine/tenant-invitations/delivery-status';
/** The sample's tenants are fixed (acme, globex): the encoding case runs in the packages' own pair tests. */
const sampleTenants = { plain: 'acme', encoded: null } as const;

// The SES pair sets the AWS SDK's variables for its run; every other test of this worker sees them as before.
const awsVariables = ['AWS_ENDPOINT_URL_SESV2', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;
const savedAws = awsVariables.map((name) => [name, process.env[name]] as const);
afterAll(() => {
  for (const [name, value] of savedAws) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The data folder of the running sample host (the SendGrid demo key is written there). */
let dataDirectory = '';

/**
 * Starts the provider fake and the sample host with `section` (under Engine:MultiTenancy:Governance)
 * configured from the fake's URL; invites, dispatches and posts over HTTP with the demo bearer token.
 */
async function startSamplePair(
  provider: () => Promise<RecordingProvider>,
  section: string,
  senderOptions: (url: string) => Record<string, unknown>,
  senderId: string,
  callbackPath: string,
  outcomesOf: (body: any) => string[],
): Promise<SenderCallbackPairRun> {
  const fake = await provider();
  dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'sample-pairs-'));
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    environment: {},
    dataDirectory,
    configuration: { Engine: { MultiTenancy: { Governance: { [section]: senderOptions(fake.url) } } } },
  }).catch(async (error: unknown) => {
    await fake.close();
    throw error;
  });
  const { port } = await sample.host.listen();
  const base = `http://127.0.0.1:${port}`;
  const call = async (route: string, body: Buffer | string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    async invite(tenantId) {
      const answer = await call(
        '/engine/tenant-administration/commands',
        JSON.stringify({
          command: 'invite',
          tenantId,
          inviteeKind: 'email',
          inviteeId: `pair-${randomBytes(4).toString('hex')}@example.test`,
          roles: ['member'],
        }),
      );
      return answer.body.invitation.invitationId as string;
    },
    async dispatch(tenantId, invitationId) {
      const answer = await call(
        '/engine/tenant-invitations/delivery-dispatches',
        JSON.stringify({ tenantId, invitationId }),
      );
      const outcome = (answer.body?.outcomes ?? []).find((item: any) => item.senderId === senderId);
      return { outcome: outcome?.outcome ?? `missing (${answer.status})`, providerMessageId: null };
    },
    exchanges: fake.exchanges,
    async post(webhook: ProviderWebhook) {
      const answer = await call(callbackPath, webhook.raw, webhook.headers);
      return { status: answer.status, outcomes: answer.status === 200 ? outcomesOf(answer.body) : [] };
    },
    async deliveryStatus(tenantId, invitationId) {
      const status = sample.host.engine.resolve(invitationDeliveryStatusKey)!;
      return (await status.getStatus(tenantId, invitationId))?.status ?? null;
    },
    async stop() {
      await sample.host.close();
      await fake.close();
    },
  };
}

const providerOutcomes = (body: any) => body.outcomes.map((item: any) => item.outcome);
const neutralOutcomes = (body: any) => body.events.map((item: any) => item.outcome);
const now = () => Math.floor(Date.now() / 1000);

describeSenderCallbackPair({
  title: 'sample host: SendGrid sender ↔ SendGrid event webhook',
  tenants: sampleTenants,
  start: () =>
    startSamplePair(
      startSendGridFake,
      'SendGridInvitationDelivery',
      (url) => ({ BaseUrl: url, ApiKey: 'SG.sample-pair', FromAddress: 'invitations@core.example' }),
      'sendgrid',
      `${callbacks}/sendgrid`,
      providerOutcomes,
    ),
  webhook(exchange, status, eventId, { echoContext }) {
    // The sample host generated the key pair at startup and wrote the private key for the demo's "provider".
    const key = createPrivateKey(readFileSync(path.join(dataDirectory, 'sendgrid-demo-webhook-key.pem')));
    const raw = Buffer.from(JSON.stringify([sendGridEventFrom(exchange, status, eventId, echoContext)]));
    const timestamp = String(now());
    return {
      raw,
      headers: {
        'X-Twilio-Email-Event-Webhook-Signature': sign(
          'sha256',
          Buffer.concat([Buffer.from(timestamp), raw]),
          key,
        ).toString('base64'),
        'X-Twilio-Email-Event-Webhook-Timestamp': timestamp,
      },
    };
  },
  absentContext: { status: 200, outcome: 'skipped-no-context' },
});

describeSenderCallbackPair({
  title: 'sample host: Mailgun sender ↔ Mailgun webhook',
  tenants: sampleTenants,
  start: () =>
    startSamplePair(
      () => startMailgunFake('mg.core.example'),
      'MailgunInvitationDelivery',
      (url) => ({
        BaseUrl: url,
        DomainName: 'mg.core.example',
        ApiKey: 'sample-pair-key',
        FromAddress: 'invitations@mg.core.example',
      }),
      'mailgun',
      `${callbacks}/mailgun`,
      providerOutcomes,
    ),
  async webhook(exchange, status, eventId, { echoContext }) {
    const timestamp = String(now());
    const token = randomBytes(25).toString('hex');
    const signature = createHmac('sha256', deliveryCallbacksDemoCredentials.mailgunWebhookSigningKey)
      .update(timestamp + token)
      .digest('hex');
    const body = {
      signature: { timestamp, token, signature },
      'event-data': await mailgunEventDataFrom(exchange, status, eventId, echoContext),
    };
    return { raw: Buffer.from(JSON.stringify(body)), headers: {} };
  },
  absentContext: { status: 200, outcome: 'skipped-no-context' },
});

describeSenderCallbackPair({
  title: 'sample host: Amazon SES sender ↔ SES callback (raw events: the sample has no SNS topic)',
  tenants: sampleTenants,
  start: () =>
    startSamplePair(
      startSesFake,
      'AmazonSesInvitationDelivery',
      (url) => {
        // The sample configures SES by section; the AWS SDK takes its endpoint and credentials from the
        // process environment (as a deployed sample would), here the local fake and test values.
        Object.assign(process.env, {
          AWS_ENDPOINT_URL_SESV2: url,
          AWS_ACCESS_KEY_ID: 'AKIASAMPLEPAIR',
          AWS_SECRET_ACCESS_KEY: 'sample-pair-secret',
        });
        return {
          RegionSystemName: 'us-east-1',
          ConfigurationSetName: 'invitations',
          FromAddress: 'invitations@core.example',
        };
      },
      'amazon-ses',
      `${callbacks}/amazon-ses-sns`,
      providerOutcomes,
    ),
  // The sample maps SES in its controlled-test posture (raw SES events, no SNS signature): posted as such.
  webhook: (exchange, status, _eventId, { echoContext }) => ({
    raw: Buffer.from(JSON.stringify(sesEventFrom(exchange, status, echoContext))),
    headers: { 'content-type': 'text/plain; charset=UTF-8' },
  }),
  absentContext: { status: 200, outcome: 'skipped-no-context' },
});

/** The provider-neutral callback as the sample takes it: signed with the demo secret and key id. */
function neutralSigned(observation: Record<string, unknown>): ProviderWebhook {
  const raw = Buffer.from(JSON.stringify({ observations: [observation] }));
  const timestamp = now();
  return {
    raw,
    headers: {
      'x-core-callback-signature': signDeliveryStatusCallback(
        governanceDemoCredentials.callbackSigningSecret,
        timestamp,
        raw,
      ),
      'x-core-callback-signature-timestamp': String(timestamp),
      'x-core-callback-key-id': governanceDemoCredentials.callbackSigningKeyId,
    },
  };
}

describeSenderCallbackPair({
  title: 'sample host: HTTP webhook sender ↔ provider-neutral callback',
  tenants: sampleTenants,
  start: () =>
    startSamplePair(
      () => startWebhookReceiverFake('/invitations'),
      'HttpInvitationDelivery',
      (url) => ({ Endpoint: `${url}/invitations` }),
      'http-webhook',
      callbacks,
      neutralOutcomes,
    ),
  webhook: (exchange, status, eventId, { echoContext }) =>
    neutralSigned(neutralObservation('relay', webhookBodyFields(exchange), status, eventId, echoContext)),
  absentContext: { status: 400 },
});

describeSenderCallbackPair({
  title: 'sample host: Microsoft Graph sender ↔ provider-neutral callback',
  tenants: sampleTenants,
  start: () =>
    startSamplePair(
      () => startGraphFake('/v1.0/users/sender%40core.example/sendMail'),
      'MicrosoftGraphInvitationDelivery',
      (url) => ({ BaseUrl: url, AccessToken: 'sample-pair-token', SenderUserId: 'sender@core.example' }),
      'microsoft-graph',
      callbacks,
      neutralOutcomes,
    ),
  webhook(exchange, status, eventId, { echoContext }) {
    const headers = graphMessageHeaders(exchange);
    const read = (name: string) => (headers[name] ? decodeContextValue(headers[name]) : undefined);
    const fields = {
      tenantId: read('x-core-tenant-id'),
      invitationId: read('x-core-invitation-id'),
      providerMessageId: read('x-core-message-id'),
    };
    return neutralSigned(neutralObservation('graph-trace', fields, status, eventId, echoContext));
  },
  absentContext: { status: 400 },
});
