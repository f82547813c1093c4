import { startHttpFakeServer, type FakeHttpServer } from '@corekit/testing/http-fake-server';
import {
  ClientCredentialsTokenError,
  clientCredentialsTokenProvider,
  tokenEndpointOf,
} from './client-credentials-token-provider';

const secret = 'tokenProviderSecret~0123456789';
let identity: FakeHttpServer;
let issued = 0;

beforeAll(async () => {
  // The identity platform's v2.0 token endpoint for the client credentials grant (form body; JSON answer).
  identity = await startHttpFakeServer((request) => {
    const form = new URLSearchParams(request.body);
    if (request.path !== '/contoso.example/oauth2/v2.0/token') return { status: 404, body: {} };
    if (form.get('client_secret') !== secret)
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: `bad ${form.get('client_secret')}` },
      };
    issued += 1;
    return { status: 200, body: { token_type: 'Bearer', expires_in: 3600, access_token: `token-${issued}` } };
  });
});
afterAll(() => identity.close());

const grant = (clientSecret = secret) => ({
  AuthorityHost: identity.url,
  TenantId: 'contoso.example',
  ClientId: 'client-1',
  ClientSecret: clientSecret,
  Scopes: ['https://graph.microsoft.com/.default', 'offline_access'],
});

it('names the v2.0 token endpoint of the tenant on the named clouds', () => {
  expect(tokenEndpointOf({ AuthorityHost: 'public', TenantId: 'contoso.example' })).toBe(
    'https://login.microsoftonline.com/contoso.example/oauth2/v2.0/token',
  );
  expect(tokenEndpointOf({ AuthorityHost: 'china', TenantId: 't' })).toBe(
    'https://login.chinacloudapi.cn/t/oauth2/v2.0/token',
  );
});

it('sends the client credentials grant and keeps the token until five minutes before it expires', async () => {
  let now = Date.parse('2026-12-01T10:00:00Z');
  const tokens = clientCredentialsTokenProvider(grant(), () => now);
  const signal = new AbortController().signal;
  const first = await tokens.getToken(signal);
  const form = new URLSearchParams(identity.requests.at(-1)!.body);
  expect(Object.fromEntries(form)).toEqual({
    client_id: 'client-1',
    client_secret: secret,
    scope: 'https://graph.microsoft.com/.default offline_access',
    grant_type: 'client_credentials',
  });
  now += 54 * 60_000;
  expect(await tokens.getToken(signal)).toBe(first);
  now += 2 * 60_000;
  expect(await tokens.getToken(signal)).not.toBe(first);
});

it('throws the status and OAuth error code of a refusal, never the secret', async () => {
  const failure = await clientCredentialsTokenProvider(grant('a-wrong-secret'))
    .getToken(new AbortController().signal)
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ClientCredentialsTokenError);
  expect(failure).toMatchObject({ status: 401, error: 'invalid_client' });
  expect(String((failure as Error).message)).not.toContain('a-wrong-secret');
});
