import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '@corekit/engine-core';
import type { WebHost } from '@corekit/web-host';
import { demoCallbackSignature, governanceDemoCredentials as demo } from './packs/governance-web-demo';
import { createSampleHost } from './sample-host';

// The console's operator view of invitation deliveries needing attention, on the sample host: each caller sees
// the rows of the tenants its credential may read on the observation route, and how many others were hidden.

let host: WebHost | undefined;
let directory: string | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  if (directory) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

interface ViewDocument {
  readonly id: string;
  readonly rowCount: number;
  readonly hiddenRowCount: number;
  readonly rows: ReadonlyArray<{ readonly cells: ReadonlyArray<unknown> }>;
}

it('shows each caller the invitation-delivery-attention rows of its own tenants and counts the rest as hidden', async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'console-tenant-scope-'));
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    environment: {},
    logger: createMemoryLogger(),
    dataDirectory: directory,
  });
  host = sample.host;
  const { port } = await sample.host.listen();
  const base = `http://127.0.0.1:${port}`;
  const post = async (route: string, body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${demo.bearerToken}`,
        ...headers,
      },
      body,
    });
    expect([route, response.status]).toEqual([route, 200]);
    return (await response.json()) as any;
  };
  // One bounced invitation in each tenant: invited, dispatched, then bounced by a signed callback.
  for (const tenantId of ['acme', 'globex']) {
    const invited = await post(
      '/engine/tenant-administration/commands',
      JSON.stringify({
        command: 'invite',
        tenantId,
        inviteeKind: 'email',
        inviteeId: `bounce@${tenantId}.example.test`,
        roles: ['member'],
      }),
    );
    const invitationId = invited.invitation.invitationId as string;
    const dispatched = await post(
      '/engine/tenant-invitations/delivery-dispatches',
      JSON.stringify({ tenantId, invitationId }),
    );
    const raw = JSON.stringify({
      observations: [
        {
          providerKey: 'demo',
          providerEventId: `bounce-${tenantId}`,
          tenantId,
          invitationId,
          status: 'bounced',
          providerMessageId: dispatched.outcomes[0].providerMessageId as string,
        },
      ],
    });
    await post('/engine/tenant-invitations/delivery-status', raw, demoCallbackSignature(raw));
  }

  const view = async (token?: string) => {
    const response = await fetch(`${base}/engine/console/operator-views`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const views = (await response.json()) as ViewDocument[];
    const found = views.find((candidate) => candidate.id === 'invitation-delivery-attention')!;
    // The first cell is the row's tenant.
    return [found.rows.map((row) => String(row.cells[0])).sort(), found.rowCount, found.hiddenRowCount];
  };
  expect(await view(demo.bearerToken)).toEqual([['acme', 'globex'], 2, 0]);
  expect(await view(demo.acmeBearerToken)).toEqual([['acme'], 1, 1]);
  expect(await view(demo.globexBearerToken)).toEqual([['globex'], 1, 1]);
  expect(await view()).toEqual([[], 0, 2]);
});
