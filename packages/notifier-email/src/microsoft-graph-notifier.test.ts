import { randomBytes } from 'node:crypto';
import {
  startHttpFakeServer,
  type FakeHttpServer,
  type RecordedHttpRequest,
} from '@corekit/testing/http-fake-server';
import { notifierConformanceSuite, sampleNotification } from '@corekit/testing/notifier-conformance';
import { startNotifierService, type NotifierService } from '@corekit/testing/notifier-service';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { notifierRegistryKey, type AlertNotification, type Notifier } from '@corekit/notifier-kit';
import { addEmailNotifier } from './index';

const tenantId = '11111111-2222-3333-4444-555555555555';
const clientId = '99999999-8888-7777-6666-555555555555';
const clientSecret = 'graphNotifierSecret~0123456789.abcdefghij';
const from = { FromAddress: 'alerts@core.example', FromName: 'Core Alerts', To: 'oncall@ops.example' };

/** The access tokens the identity fake issued: the Graph fake accepts these and nothing else. */
const issuedTokens = new Set<string>();

/**
 * Answers as the identity platform's v2.0 token endpoint does for the client credentials grant:
 * `POST /{tenant}/oauth2/v2.0/token` (form) with `grant_type=client_credentials`, the app's `client_id` and
 * `client_secret` and a `.default` scope; 401 `invalid_client` for another secret, 400 `invalid_scope` or
 * `unsupported_grant_type` otherwise; 200 `{ token_type, expires_in, access_token }` with a new random token.
 */
function identityAnswer(request: RecordedHttpRequest) {
  if (request.method !== 'POST' || request.path !== `/${tenantId}/oauth2/v2.0/token`)
    return { status: 404, body: { error: 'not_found' } };
  const form = new URLSearchParams(request.body);
  if (form.get('grant_type') !== 'client_credentials')
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
    return { status: 401, body: { error: 'invalid_client', error_description: 'AADSTS7000215' } };
  if (form.get('scope') !== 'https://graph.microsoft.com/.default')
    return { status: 400, body: { error: 'invalid_scope' } };
  const token = `eyJ0eXAi.${randomBytes(24).toString('base64url')}`;
  issuedTokens.add(token);
  return {
    status: 200,
    body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token },
  };
}

interface SendMailBody {
  message?: {
    subject?: string;
    body?: { contentType?: string; content?: string };
    toRecipients?: Array<{ emailAddress?: { address?: string } }>;
    internetMessageHeaders?: Array<{ name: string; value: string }>;
  };
  saveToSentItems?: boolean;
}

/**
 * Answers as Graph's sendMail does: `POST /v1.0/users/{id}/sendMail` with a bearer token the identity fake issued
 * (401 InvalidAuthenticationToken otherwise); 400 ErrorInvalidRecipients without recipients, 400
 * InvalidInternetMessageHeaderCollection for more than 5 headers or one not starting with `x-`; 202 with an empty
 * body and `request-id` otherwise.
 */
function graphAnswer(request: RecordedHttpRequest) {
  if (request.method !== 'POST' || !/^\/v1\.0\/users\/[^/]+\/sendMail$/.test(request.path))
    return { status: 404, body: { error: { code: 'ResourceNotFound' } } };
  const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
  if (!bearer || !issuedTokens.has(bearer))
    return {
      status: 401,
      body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.' } },
    };
  const { message } = JSON.parse(request.body) as SendMailBody;
  if (!message?.toRecipients?.[0]?.emailAddress?.address)
    return { status: 400, body: { error: { code: 'ErrorInvalidRecipients' } } };
  const headers = message.internetMessageHeaders ?? [];
  if (headers.length > 5 || headers.some((header) => !/^x-/i.test(header.name)))
    return { status: 400, body: { error: { code: 'InvalidInternetMessageHeaderCollection' } } };
  return { status: 202, headers: { 'request-id': `fake-${request.bytes.length}` } };
}

let identity: FakeHttpServer;

const graphTarget = (url: string, secret = clientSecret) => ({
  Provider: 'MicrosoftGraph',
  ...from,
  MicrosoftGraph: {
    BaseUrl: url,
    AuthorityHost: identity.url,
    TenantId: tenantId,
    ClientId: clientId,
    ClientSecret: secret,
  },
});

function expectGraphEmail(request: RecordedHttpRequest, notification: AlertNotification) {
  expect(request.path).toBe('/v1.0/users/alerts%40core.example/sendMail');
  const { message, saveToSentItems } = JSON.parse(request.body) as SendMailBody;
  expect(saveToSentItems).toBe(false);
  expect(message!.subject).toBe(notification.title);
  expect(message!.toRecipients).toEqual([{ emailAddress: { address: 'oncall@ops.example' } }]);
  expect(message!.body!.contentType).toBe('HTML');
  for (const alert of notification.alerts) {
    const state = alert.status === 'resolved' ? 'resolved' : alert.severity;
    expect(message!.body!.content).toContain(
      `<td>${state}</td><td>${alert.ruleId} ${alert.dependencyId}</td>`,
    );
  }
  expect(message!.internetMessageHeaders).toEqual([
    { name: 'X-Core-Incident-Id', value: notification.incidentId },
    { name: 'X-Core-Notification-Id', value: notification.notificationId },
  ]);
}

beforeAll(async () => {
  identity = await startHttpFakeServer(identityAnswer);
});
afterAll(() => identity.close());

notifierConformanceSuite({
  kind: 'Email (Microsoft Graph)',
  add: addEmailNotifier as never,
  startService: () => startNotifierService(graphAnswer),
  target: (url) => graphTarget(url),
  secret: clientSecret,
  verify: expectGraphEmail,
});

describe('email notifier through Microsoft Graph', () => {
  let graph: NotifierService;
  beforeAll(async () => {
    graph = await startNotifierService(graphAnswer);
  });
  afterAll(() => graph.close());

  function notifierOf(target: Record<string, unknown>): Notifier {
    const { builder } = createTestEngineBuilder();
    addEmailNotifier(builder, { Targets: [{ Id: 'graph-mail', TimeoutSeconds: 5, ...target } as never] });
    return builder.resolve(notifierRegistryKey)!.get('graph-mail') as Notifier;
  }

  it('asks one token per target and sends every later notification with it', async () => {
    const tokensBefore = identity.requests.length;
    const notifier = notifierOf(graphTarget(graph.url));
    expect(await notifier.send(sampleNotification('firing'))).toMatchObject({
      outcome: 'delivered',
      responseCode: 202,
    });
    expect(await notifier.send(sampleNotification('resolved'))).toMatchObject({ outcome: 'delivered' });
    expect(identity.requests.length - tokensBefore).toBe(1);
    const [first, second] = graph.accepted.slice(-2).map((request) => request.headers.authorization);
    expect(first).toBe(second);
  });

  it('sends nothing when the identity platform refuses the secret, and retries later', async () => {
    const before = graph.requests.length;
    const outcome = await notifierOf(graphTarget(graph.url, 'a-wrong-secret-value')).send(
      sampleNotification(),
    );
    expect(outcome).toMatchObject({ outcome: 'retryable', reason: 'token-unavailable', responseCode: null });
    expect(graph.requests).toHaveLength(before);
    expect(identity.requests.at(-1)!.body).toContain('grant_type=client_credentials');
  });

  it('sends from SenderUserId when set, and labels the target with the Graph host only', async () => {
    const target = graphTarget(graph.url);
    const notifier = notifierOf({
      ...target,
      MicrosoftGraph: { ...target.MicrosoftGraph, SenderUserId: 'ops-mailbox@core.example' },
    });
    expect(notifier.target).toBe(`microsoftgraph ${new URL(graph.url).host}`);
    expect(await notifier.send(sampleNotification())).toMatchObject({ outcome: 'delivered' });
    expect(graph.accepted.at(-1)!.path).toBe('/v1.0/users/ops-mailbox%40core.example/sendMail');
  });

  it('refuses a missing or placeholder secret, a bad tenant and a clear-text authority, naming the key', () => {
    const graphSettings = { TenantId: tenantId, ClientId: clientId, ClientSecret: clientSecret };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ TenantId: tenantId, ClientId: clientId }, /Email:Targets:0:MicrosoftGraph:ClientSecret/],
      [{ ...graphSettings, ClientSecret: '<CLIENT_SECRET>' }, /Email:Targets:0:MicrosoftGraph:ClientSecret/],
      [{ ...graphSettings, TenantId: 'contoso tenant' }, /Email:Targets:0:MicrosoftGraph:TenantId.*tenant/s],
      [
        { ...graphSettings, AuthorityHost: 'http://login.example.com' },
        /Email:Targets:0:MicrosoftGraph:AuthorityHost.*https/s,
      ],
    ];
    for (const [settings, message] of cases) {
      const { builder } = createTestEngineBuilder();
      expect(() =>
        addEmailNotifier(builder, {
          Targets: [
            { Id: 'graph-mail', Provider: 'MicrosoftGraph', ...from, MicrosoftGraph: settings } as never,
          ],
        }),
      ).toThrow(message);
    }
  });
});
