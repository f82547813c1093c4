// Pack operations over GraphQL, JSON-RPC and gRPC on the real sample host (docs/adr/0001-one-callable.md): a
// governance command, an agent run and an event publication, each with the tenant resource, input schema and
// authorization it has on REST. A tenant-scoped token acts in its own tenant and is refused in the other.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '@corekit/engine-core';
import { tenantGovernanceKey } from '@corekit/tenant-governance';
import {
  graphQlCallables,
  grpcCallables,
  jsonRpcCallables,
  type CallableCall,
} from '@corekit/testing/callable-clients';
import { createBehaviorClient } from '@corekit/transport-grpc';
import type { WebHost } from '@corekit/web-host';
import { governanceDemoCredentials as demo } from './packs/governance-web-demo';
import { createSampleHost } from './sample-host';

let host: WebHost | undefined;
let dataDirectory: string | undefined;
const clients: Array<{ close(): void }> = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await host?.close();
  host = undefined;
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
  dataDirectory = undefined;
});

/** The fields read back from each operation's GraphQL answer (an object type generated from its result schema). */
const graphQlSelections = {
  'tenant-governance-web.administration-command': '{ command outcome }',
  'agents.run-tool': '{ outcome }',
  'eventing.publish': '{ outcome }',
};

/** The sample host as `pnpm demo` runs it (demo tokens on), its own data folder, and a client per transport. */
async function start(): Promise<{ transports: Record<string, CallableCall>; sample: WebHost }> {
  dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'sample-callables-'));
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    environment: {},
    logger: createMemoryLogger(),
    dataDirectory,
  });
  host = sample.host;
  const { port } = await sample.host.listen();
  const base = `http://127.0.0.1:${port}`;
  const grpc = sample.transports.grpc;
  const grpcClient = createBehaviorClient(grpc.proto()!, `127.0.0.1:${grpc.port()}`);
  clients.push(grpcClient);
  const transports: Record<string, CallableCall> = {
    graphql: graphQlCallables(base, '/graphql', graphQlSelections),
    jsonrpc: jsonRpcCallables(base),
    grpc: grpcCallables(grpcClient.call, (_id, input) => wire(input)),
  };
  return { transports, sample: sample.host };
}

/** gRPC carries what protobuf cannot type (a discriminated union, a JSON payload) as JSON text. */
function wire(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).map(([part, value]) => [part, part === 'body' ? wireBody(value) : value]),
  );
}

function wireBody(body: unknown): unknown {
  const fields = body as Record<string, unknown>;
  if ('command' in fields) return JSON.stringify(fields);
  if ('payload' in fields) return { ...fields, payload: JSON.stringify(fields.payload) };
  return fields;
}

const invite = (tenantId: string) => ({
  body: {
    command: 'invite',
    tenantId,
    inviteeKind: 'email',
    inviteeId: `new-${Math.random().toString(36).slice(2, 8)}@${tenantId}.example.test`,
    roles: ['member'],
  },
});
const runLookup = (tenantId: string) => ({
  params: { toolId: 'lookup-ticket' },
  body: { arguments: '{"ticketId":"T-100"}', metadata: { tenantId } },
});
const publish = (tenantId: string) => ({
  body: { channelId: 'orders', eventType: 'order-placed', payload: { sku: 'LAMP-7' }, tenantId },
});

describe.each(['graphql', 'jsonrpc', 'grpc'])('pack operations over %s on the sample host', (transport) => {
  it('a governance command runs in the caller’s tenant and is refused in another', async () => {
    const { transports, sample } = await start();
    const call = transports[transport]!;
    const own = await call(
      'tenant-governance-web.administration-command',
      invite('acme'),
      demo.acmeBearerToken,
    );
    expect(own).toMatchObject({ result: { command: 'invite', outcome: 'applied' } });
    const other = await call(
      'tenant-governance-web.administration-command',
      invite('globex'),
      demo.acmeBearerToken,
    );
    expect(other).toEqual({ kind: 'forbidden' });
    const governance = sample.engine.resolve(tenantGovernanceKey)!;
    expect(await governance.listInvitations('acme')).toHaveLength(1);
    expect(await governance.listInvitations('globex')).toEqual([]);
  });

  it('an agent run runs in the caller’s tenant and is refused in another or without a tenant', async () => {
    const { transports } = await start();
    const call = transports[transport]!;
    expect(await call('agents.run-tool', runLookup('acme'), demo.acmeBearerToken)).toMatchObject({
      result: { outcome: 'succeeded' },
    });
    expect(await call('agents.run-tool', runLookup('acme'), demo.globexBearerToken)).toEqual({
      kind: 'forbidden',
    });
    const withoutTenant = {
      params: { toolId: 'lookup-ticket' },
      body: { arguments: '{"ticketId":"T-100"}' },
    };
    expect(await call('agents.run-tool', withoutTenant, demo.acmeBearerToken)).toEqual({ kind: 'forbidden' });
  });

  it('an event publication is accepted in the caller’s tenant and refused in another', async () => {
    const { transports } = await start();
    const call = transports[transport]!;
    const accepted = await call('eventing.publish', publish('globex'), demo.globexBearerToken);
    expect(accepted).toMatchObject({ result: { outcome: 'accepted' } });
    expect(await call('eventing.publish', publish('globex'), demo.acmeBearerToken)).toEqual({
      kind: 'forbidden',
    });
  });
});
