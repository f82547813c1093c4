import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '@corekit/engine-core';
import { tenantGovernanceKey } from '@corekit/tenant-governance';
import type { WebHost } from '@corekit/web-host';
import { governanceDemoCredentials as demo } from './packs/governance-web-demo';
import { createSampleHost } from './sample-host';

const commands = '/engine/tenant-administration/commands';
const dispatches = '/engine/tenant-invitations/delivery-dispatches';
const observations = '/engine/tenant-invitations/delivery-status/observations';
const operatorToken = 'operator-token-tenants-1';

let host: WebHost | undefined;
let dataDirectory: string | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
  dataDirectory = undefined;
});

/** The sample host as `pnpm demo` runs it (demo tokens on), with an operator token and its own data folder. */
async function start() {
  dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'sample-tenant-tokens-'));
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    environment: { SAMPLE_OPERATOR_TOKEN: operatorToken },
    logger: createMemoryLogger(),
    dataDirectory,
  });
  host = sample.host;
  const { port } = await sample.host.listen();
  const base = `http://127.0.0.1:${port}`;
  const call = async (route: string, token: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const governance = sample.host.engine.resolve(tenantGovernanceKey)!;
  return { call, governance };
}

const invite = (tenantId: string) => ({
  command: 'invite',
  tenantId,
  inviteeKind: 'email',
  inviteeId: `new@${tenantId}.example.test`,
  roles: ['member'],
});

describe('the sample host scopes governance tokens to tenants (README walkthrough)', () => {
  it('a tenant token is answered 200 in its own tenant and 403 in the other, on commands, dispatches and reads', async () => {
    const { call } = await start();
    const own = await call(commands, demo.acmeBearerToken, invite('acme'));
    expect(own.status).toBe(200);
    expect(own.body.audit.actor).toBe('acme-admin');
    expect((await call(commands, demo.acmeBearerToken, invite('globex'))).status).toBe(403);
    const globex = await call(commands, demo.globexBearerToken, invite('globex'));
    expect(globex.status).toBe(200);
    const globexInvitation = globex.body.invitation.invitationId as string;
    const dispatch = { tenantId: 'globex', invitationId: globexInvitation };
    expect((await call(dispatches, demo.acmeBearerToken, dispatch)).status).toBe(403);
    expect((await call(dispatches, demo.globexBearerToken, dispatch)).status).toBe(200);
    expect((await call(`${observations}?tenantId=acme`, demo.acmeBearerToken)).status).toBe(200);
    expect((await call(`${observations}?tenantId=globex`, demo.acmeBearerToken)).status).toBe(403);
    // Every tenant at once is for the all-tenants tokens only.
    expect((await call(observations, demo.acmeBearerToken)).status).toBe(403);
    expect((await call(observations, demo.bearerToken)).status).toBe(200);
  });

  it('the query cannot move a command into another tenant: 400 TENANT_SCOPE_CONFLICT, nothing created', async () => {
    const { call, governance } = await start();
    const moved = await call(`${commands}?tenantId=globex`, demo.globexBearerToken, invite('acme'));
    expect([moved.status, moved.body.code]).toEqual([400, 'TENANT_SCOPE_CONFLICT']);
    const movedBack = await call(`${commands}?tenantId=acme`, demo.acmeBearerToken, invite('globex'));
    expect([movedBack.status, movedBack.body.code]).toEqual([400, 'TENANT_SCOPE_CONFLICT']);
    expect(await governance.listInvitations('acme')).toEqual([]);
    expect(await governance.listInvitations('globex')).toEqual([]);
  });

  it('the operator token (SAMPLE_OPERATOR_TOKEN) acts in every tenant; an unknown token is refused', async () => {
    const { call } = await start();
    const acme = await call(commands, operatorToken, invite('acme'));
    expect([acme.status, acme.body.audit.actor]).toEqual([200, 'operator']);
    expect((await call(commands, operatorToken, invite('globex'))).status).toBe(200);
    expect((await call(observations, operatorToken)).status).toBe(200);
    expect((await call(`${observations}?tenantId=acme`, 'someone-else')).status).toBe(403);
  });
});
