import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rawHttpRequest } from '@corekit/testing/raw-http-request';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { addGovernanceDeliveryDemo } from './governance-delivery-demo';
import {
  addGovernanceWebDemo,
  governanceDemoAuthorize,
  governanceDemoCredentials,
} from './governance-web-demo';
import { addTenancyDemo } from './tenancy-demo';

let host: WebHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** One request with its path sent exactly as written, with the demo's bearer token. */
async function raw(
  base: string,
  method: string,
  requestPath: string,
): Promise<{ status: number; code?: string }> {
  const answer = await rawHttpRequest(base, {
    method,
    path: requestPath,
    headers: {
      authorization: `Bearer ${governanceDemoCredentials.bearerToken}`,
      'content-type': 'application/json',
    },
    body: method === 'POST' ? '{}' : undefined,
  });
  return { status: answer.status, code: (JSON.parse(answer.text) as { code?: string }).code };
}

it('a doubled slash before a governance route answers 404 ROUTE_NOT_FOUND, never 405 for the method it takes', async () => {
  const dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'doubled-slash-'));
  const { builder } = createTestEngineBuilder();
  addTenancyDemo(builder, { dataDirectory: path.join(dataDirectory, 'stores') });
  addGovernanceDeliveryDemo(builder, { dataDirectory });
  addGovernanceWebDemo(builder);
  host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: (request, requirement) =>
      governanceDemoAuthorize(request.headers, requirement?.policy ?? null) ?? false,
  });
  const base = (await host.listen()).url.replace('localhost', '127.0.0.1');
  const observations = '/engine/tenant-invitations/delivery-status/observations?tenantId=acme';
  expect([
    await raw(base, 'POST', '//engine/tenant-administration/commands'),
    await raw(base, 'GET', `/${observations}`),
  ]).toEqual([
    { status: 404, code: 'ROUTE_NOT_FOUND' },
    { status: 404, code: 'ROUTE_NOT_FOUND' },
  ]);
  // The same routes with one slash are served (the observations read answers 200 to the demo's token).
  expect((await raw(base, 'GET', observations)).status).toBe(200);
});
