// The tenant isolation suite over GraphQL, JSON-RPC and gRPC (docs/adr/0001-one-callable.md): the requests of
// tenant-isolation.test.ts, made to the same operations through each transport adapter, with the same tokens.
import { transportAdapterKey } from '@corekit/abstractions';
import {
  graphQlCallables,
  grpcCallables,
  jsonRpcCallables,
  type CallableCall,
} from '@corekit/testing/callable-clients';
import { createBehaviorClient } from '@corekit/transport-grpc';
import type { EndpointFamily } from './endpoint-families';
import { closeGovernanceWebHosts, startGovernanceWeb } from './test-support/governance-web-host';
import {
  fixture,
  guardedFamilies,
  tenantRequests,
  tenantState,
  type TenantRequest,
  type Web,
} from './test-support/tenant-isolation-requests';

const clients: Array<{ close(): void }> = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await closeGovernanceWebHosts();
});

/** The signed delivery-status callback takes the raw request bytes: an HTTP-only operation, never a callable. */
const httpOnlyFamilies: readonly EndpointFamily[] = ['callback'];

/** What protobuf cannot type travels as JSON text: the command body is a union of the ten commands. */
function grpcWire(callableId: string, input: Record<string, unknown>): unknown {
  return callableId.endsWith('.administration-command')
    ? { ...input, body: JSON.stringify(input.body) }
    : input;
}

const clientsOf: Record<string, (web: Web) => CallableCall> = {
  graphql: (web) => graphQlCallables(web.base),
  jsonrpc: (web) => jsonRpcCallables(web.base),
  grpc: (web) => {
    const client = createBehaviorClient(web.grpc!.proto()!, `127.0.0.1:${web.grpc!.port()}`);
    clients.push(client);
    return grpcCallables(client.call, grpcWire);
  },
};

/** A REST request of the suite as the callable input: the query string becomes the `query` part. */
function callableInput(request: TenantRequest): Record<string, unknown> {
  return {
    ...(request.query ? { query: Object.fromEntries(new URLSearchParams(request.query)) } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
  };
}

describe.each(Object.keys(clientsOf))(
  'tenant isolation of the governance operations over %s',
  (transport) => {
    it("a token for acme is refused every command, dispatch and observation of globex, and globex's own token is let in", async () => {
      const web = await startGovernanceWeb({ transports: true });
      const call = clientsOf[transport]!(web);
      const globex = await fixture(web, 'globex');
      const before = await tenantState(web, 'globex');
      const families = guardedFamilies(web).filter((family) => !httpOnlyFamilies.includes(family));
      expect(families.sort()).toEqual(['command', 'dispatch', 'observations']);
      for (const family of families) {
        const operationId = web.endpoints.endpoints[family].operationId;
        for (const request of tenantRequests[family]!.requests(globex)) {
          const answer = await call(operationId, callableInput(request), 'tenant-acme');
          expect({ family, request: request.label, kind: answer.kind }).toEqual({
            family,
            request: request.label,
            kind: 'forbidden',
          });
        }
      }
      expect(await tenantState(web, 'globex')).toBe(before);
      for (const family of families) {
        const operationId = web.endpoints.endpoints[family].operationId;
        for (const request of tenantRequests[family]!.requests(globex)) {
          const answer = await call(operationId, callableInput(request), 'tenant-globex');
          expect({ family, request: request.label, refused: answer.kind === 'forbidden' }).toEqual({
            family,
            request: request.label,
            refused: false,
          });
        }
      }
    });
  },
);

it('every transport serves the command, dispatch and observation operations it is asked to, and never the raw-body callback', async () => {
  const web = await startGovernanceWeb({ transports: true });
  const { endpoints } = web.endpoints;
  for (const name of ['GraphQL', 'JsonRpc', 'Grpc']) {
    const served = web.engine.resolve(transportAdapterKey(name))!.mountedOperations!();
    expect({ name, served: served.filter((id) => id.startsWith('tenant-governance-web.')) }).toEqual({
      name,
      served: [
        endpoints.command.operationId,
        endpoints.dispatch.operationId,
        endpoints.observations.operationId,
      ].sort(),
    });
  }
});
