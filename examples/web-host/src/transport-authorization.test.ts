import {
  defineBehavior,
  restGet,
  streamingOutput,
  type AuthorizationDecision,
  type EngineBuilder,
} from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { emptyContentDirectory } from '@corekit/testing/test-engine-builder';
import { addGraphQlTransport } from '@corekit/transport-graphql';
import { addGrpcTransport, createBehaviorClient } from '@corekit/transport-grpc';
import { addJsonRpcTransport } from '@corekit/transport-jsonrpc';
import { createWebHost, type WebHost } from '@corekit/web-host';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { z } from 'zod';

let host: WebHost | undefined;
const clients: Array<{ close(): void }> = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await host?.close();
  host = undefined;
});

/** A module whose two behaviors need policy `vault.read` on every transport. */
function addVault(builder: EngineBuilder): void {
  builder.addModule({
    id: 'vault',
    version: '1.0.0',
    behaviors: [
      defineBehavior({
        id: 'vault.get',
        input: z.object({ id: z.string() }),
        output: z.object({ id: z.string(), secret: z.string() }),
        authorization: { mode: 'required', policy: 'vault.read' },
        handler: ({ id }) => ({ id, secret: `secret-of-${id}` }),
      }),
      defineBehavior({
        id: 'vault.watch',
        input: z.object({}),
        output: streamingOutput(z.object({ id: z.string() })),
        authorization: { mode: 'required', policy: 'vault.read' },
        handler: async function* () {
          yield { id: 'v1' };
        },
      }),
    ],
    rest: [restGet('/api/vault/:id', 'vault.get')],
  });
}

/** `Bearer reader` may read the vault, `Bearer writer` is known but refused, anything else is anonymous. */
function authorize(asked: string[]) {
  return (request: IncomingMessage, requirement?: { policy: string | null }): AuthorizationDecision => {
    asked.push(String(requirement?.policy));
    const token = /^Bearer (\S+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (token === 'reader' && requirement?.policy === 'vault.read')
      return { outcome: 'allowed', principal: { subject: 'reader-1' } };
    if (token === 'reader' || token === 'writer') return { outcome: 'forbidden' };
    return { outcome: 'unauthenticated' };
  };
}

async function start() {
  const builder = createEngineBuilder({
    contentRoot: emptyContentDirectory(),
    environment: {},
    logger: createMemoryLogger(),
    configuration: {
      Engine: {
        Transports: ['RestApi', 'ServerSentEvents', 'WebSocket', 'GraphQL', 'Grpc', 'JsonRpc'],
        Grpc: { Port: 0 },
      },
    },
  });
  addVault(builder);
  addGraphQlTransport(builder);
  addJsonRpcTransport(builder);
  const grpc = addGrpcTransport(builder);
  const asked: string[] = [];
  host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: authorize(asked),
  });
  const { port } = await host.listen();
  const base = `http://127.0.0.1:${port}`;
  const grpcClient = createBehaviorClient(grpc.proto()!, `127.0.0.1:${grpc.port()}`);
  clients.push(grpcClient);
  return { base, grpcClient, asked };
}

/** What one caller gets on each of the six transports, as comparable strings. */
async function everyTransport(
  base: string,
  grpcClient: ReturnType<typeof createBehaviorClient>,
  token?: string,
) {
  const authorization: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const post = async (path: string, body: unknown) =>
    (await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authorization },
      body: JSON.stringify(body),
    }).then((response) => response.json())) as any;
  const rest = await fetch(`${base}/api/vault/v1`, { headers: authorization });
  const sse = await fetch(`${base}/streams/vault.watch`, { headers: authorization });
  const sseText = await sse.text();
  const webSocket = await new Promise<string>((resolve) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/streams/vault.watch/ws`, {
      headers: authorization,
    });
    const frames: string[] = [];
    socket.on('unexpected-response', (_request, response) => {
      resolve(`refused ${response.statusCode}`);
      response.resume();
      socket.terminate();
    });
    socket.on('message', (data) => frames.push(JSON.parse(String(data)).type));
    socket.on('close', (code) => resolve(`closed ${code} ${frames.join(',')}`));
    socket.on('error', () => undefined);
  });
  const graphql = await post('/graphql', { query: '{ vaultGet(id: "v1") { secret } }' });
  const jsonRpc = await post('/rpc', { jsonrpc: '2.0', id: 1, method: 'vault.get', params: { id: 'v1' } });
  const grpc = await grpcClient.call('VaultGet', { id: 'v1' }, undefined, authorization);
  const restBody = (await rest.json()) as { secret?: string; code?: string };
  return {
    rest: rest.status === 200 ? restBody.secret : `${rest.status} ${restBody.code}`,
    sse:
      sse.status === 200
        ? sseText.includes('event: item')
          ? 'streamed'
          : sseText
        : `${sse.status} ${JSON.parse(sseText).code}`,
    webSocket,
    graphql: graphql.data?.vaultGet?.secret ?? graphql.errors[0].extensions.code,
    jsonRpc: jsonRpc.result?.secret ?? `${jsonRpc.error.code} ${jsonRpc.error.data.code}`,
    grpc: grpc.response?.secret ?? `${grpc.error!.code} ${grpc.error!.metadata.get('corekit-error-code')[0]}`,
  };
}

describe('one authorization path for every transport', () => {
  it('asks the authorize hook with the behavior policy over REST, SSE, WebSocket, GraphQL, JSON-RPC and gRPC', async () => {
    const { base, grpcClient, asked } = await start();
    expect(await everyTransport(base, grpcClient)).toEqual({
      rest: '401 BEHAVIOR_UNAUTHENTICATED',
      sse: '401 BEHAVIOR_UNAUTHENTICATED',
      webSocket: 'refused 401',
      graphql: 'UNAUTHENTICATED',
      jsonRpc: '-32001 BEHAVIOR_UNAUTHENTICATED',
      grpc: '16 BEHAVIOR_UNAUTHENTICATED',
    });
    expect(await everyTransport(base, grpcClient, 'writer')).toEqual({
      rest: '403 BEHAVIOR_FORBIDDEN',
      sse: '403 BEHAVIOR_FORBIDDEN',
      webSocket: 'refused 403',
      graphql: 'FORBIDDEN',
      jsonRpc: '-32003 BEHAVIOR_FORBIDDEN',
      grpc: '7 BEHAVIOR_FORBIDDEN',
    });
    expect(await everyTransport(base, grpcClient, 'reader')).toEqual({
      rest: 'secret-of-v1',
      sse: 'streamed',
      webSocket: 'closed 1000 item,end',
      graphql: 'secret-of-v1',
      jsonRpc: 'secret-of-v1',
      grpc: 'secret-of-v1',
    });
    expect(asked.length).toBe(18);
    expect(new Set(asked)).toEqual(new Set(['vault.read']));
  });
});

/** A module whose `ledger.get` acts in the tenant its input names (policy `ledger.read`). */
function addLedger(builder: EngineBuilder): void {
  builder.addModule({
    id: 'ledger',
    version: '1.0.0',
    behaviors: [
      defineBehavior({
        id: 'ledger.get',
        input: z.object({ tenantId: z.string() }),
        output: z.object({ tenantId: z.string(), balance: z.number() }),
        authorization: { mode: 'required', policy: 'ledger.read' },
        authorizationResource: (input) => {
          const tenantId = (input as { tenantId?: unknown } | undefined)?.tenantId;
          return typeof tenantId === 'string' ? { tenantId, kind: 'ledger' } : { kind: 'ledger' };
        },
        handler: ({ tenantId }) => ({ tenantId, balance: 42 }),
      }),
    ],
    rest: [restGet('/api/ledgers/:tenantId', 'ledger.get')],
  });
}

describe('a behavior names the tenant it acts in, and every transport asks with it', () => {
  it('token acme reads the acme ledger and is refused the globex one over REST, GraphQL, JSON-RPC and gRPC', async () => {
    const builder = createEngineBuilder({
      contentRoot: emptyContentDirectory(),
      environment: {},
      logger: createMemoryLogger(),
      configuration: { Engine: { Transports: ['RestApi', 'GraphQL', 'Grpc', 'JsonRpc'], Grpc: { Port: 0 } } },
    });
    addLedger(builder);
    addGraphQlTransport(builder);
    addJsonRpcTransport(builder);
    const grpc = addGrpcTransport(builder);
    const resources: unknown[] = [];
    host = createWebHost(builder, {
      port: 0,
      handleSignals: false,
      environment: {},
      authorize: (request, requirement): AuthorizationDecision => {
        resources.push(requirement?.resource);
        if (request.headers.authorization !== 'Bearer acme') return { outcome: 'unauthenticated' };
        return requirement?.resource?.tenantId === 'acme' ? true : { outcome: 'forbidden' };
      },
    });
    const { port } = await host.listen();
    const base = `http://127.0.0.1:${port}`;
    const grpcClient = createBehaviorClient(grpc.proto()!, `127.0.0.1:${grpc.port()}`);
    clients.push(grpcClient);
    const headers = { authorization: 'Bearer acme', 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      ).json()) as any;
    const read = async (tenantId: string) => {
      const rest = await fetch(`${base}/api/ledgers/${tenantId}`, { headers });
      const graphql = await post('/graphql', { query: `{ ledgerGet(tenantId: "${tenantId}") { balance } }` });
      const jsonRpc = await post('/rpc', {
        jsonrpc: '2.0',
        id: 1,
        method: 'ledger.get',
        params: { tenantId },
      });
      const rpc = await grpcClient.call('LedgerGet', { tenantId }, undefined, {
        authorization: 'Bearer acme',
      });
      return {
        rest: rest.status,
        graphql: graphql.data?.ledgerGet?.balance ?? graphql.errors[0].extensions.code,
        jsonRpc: jsonRpc.result?.balance ?? jsonRpc.error.data.code,
        grpc: rpc.response?.balance ?? rpc.error!.code,
      };
    };
    expect(await read('acme')).toEqual({ rest: 200, graphql: 42, jsonRpc: 42, grpc: 42 });
    expect(await read('globex')).toEqual({
      rest: 403,
      graphql: 'FORBIDDEN',
      jsonRpc: 'BEHAVIOR_FORBIDDEN',
      grpc: 7,
    });
    expect(new Set(resources.map((resource) => JSON.stringify(resource)))).toEqual(
      new Set([
        JSON.stringify({ tenantId: 'acme', kind: 'ledger' }),
        JSON.stringify({ tenantId: 'globex', kind: 'ledger' }),
      ]),
    );
  });
});
