import type { AuthorizationDecision, StoreProvider } from '@corekit/abstractions';
import { addMultiTenancy } from '@corekit/tenancy';
import {
  addTenantGovernance,
  addTenantGovernanceDelivery,
  type InvitationSender,
} from '@corekit/tenant-governance';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addGraphQlTransport } from '@corekit/transport-graphql';
import { addGrpcTransport, type GrpcTransport } from '@corekit/transport-grpc';
import { addJsonRpcTransport } from '@corekit/transport-jsonrpc';
import {
  createWebHost,
  type AuthorizationRequirement,
  type AuthorizeRequest,
  type WebHost,
} from '@corekit/web-host';
import type { IncomingMessage } from 'node:http';
import type { GovernanceWebOptionsInput } from '../endpoint-options';
import { splitFamilyOptions } from '../endpoint-families';
import {
  governanceWebOperationIds,
  mapTenantDomainHttpProofEndpoint,
  mapTenantGovernanceEndpoints,
} from '../map-tenant-governance-endpoints';

/** A signing secret for tests (never a real one). */
export const testSigningSecret = 'test-callback-signing-secret-0123456789';

/** Tenant-scoped tokens of the test authorizer: each may use every policy, in its own tenant only. */
export const tenantTokens: Readonly<Record<string, string>> = {
  'tenant-acme': 'acme',
  'tenant-globex': 'globex',
};

/**
 * Bearer tokens of the test authorizer: `admin` may use every policy in every tenant, `reader` only the
 * observation read, `tenant-acme` and `tenant-globex` every policy for the resource of their own tenant
 * (nothing without a tenant, nothing across tenants); another token or none is unauthenticated. Every
 * requirement asked is pushed to `asked`.
 */
export function tokenAuthorizer(asked: AuthorizationRequirement[] = []): AuthorizeRequest {
  return (request: IncomingMessage, requirement): AuthorizationDecision => {
    if (requirement) asked.push(requirement);
    const token = String(request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    if (token === 'admin') return { outcome: 'allowed', principal: { subject: 'operator-7' } };
    const tenant = tenantTokens[token];
    if (tenant !== undefined) {
      return requirement?.resource?.tenantId === tenant
        ? { outcome: 'allowed', principal: { subject: `${tenant}-admin` } }
        : { outcome: 'forbidden', reason: `this token acts in tenant ${tenant} only` };
    }
    if (token === 'reader') {
      return requirement?.policy === 'tenant-governance.delivery-status-observations'
        ? { outcome: 'allowed', principal: { subject: 'reader-1' } }
        : { outcome: 'forbidden', reason: 'reader may only read observations' };
    }
    return { outcome: 'unauthenticated', reason: 'pass a bearer token' };
  };
}

/** A sender that dispatches every email with the provider message id `pm-<dispatchId>`. Tests only. */
export function dispatchingSender(id = 'test-sender'): InvitationSender {
  return {
    id,
    supportedChannels: ['email'],
    async send(request) {
      return { outcome: 'dispatched', providerMessageId: `pm-${request.dispatchId}` };
    },
  };
}

const hosts: WebHost[] = [];

/**
 * A listening web host over tenancy (acme, globex), governance, delivery (one dispatching sender) and the
 * governance endpoints; a movable clock for governance, delivery and the signature tolerance. Tests only.
 */
export async function startGovernanceWeb(
  options: {
    web?: GovernanceWebOptionsInput;
    authorize?: AuthorizeRequest | null;
    delivery?: boolean;
    configuration?: Record<string, unknown>;
    /** False: the proof-file call is not made (default: made, with the `web` proof-file keys). */
    proofFiles?: boolean;
    /** A store provider installed in code after every add* and map* call (as a host may do). */
    storeProvider?: StoreProvider;
    /**
     * Also serve the guarded governance operations (command, dispatch, observations) over GraphQL (/graphql),
     * JSON-RPC (/rpc) and gRPC (a free port): the same callables, input schemas and tenant resources as REST
     * (the signed callback is listed as well, and left out by every transport: it is HTTP-only).
     */
    transports?: boolean;
  } = {},
) {
  let now = new Date('2030-01-01T00:00:00.000Z');
  const clock = () => now;
  const transports = options.transports
    ? { Transports: ['RestApi', 'GraphQL', 'JsonRpc', 'Grpc'], Grpc: { Port: 0, BindAddress: '127.0.0.1' } }
    : {};
  const configuration = options.configuration ?? {};
  const engineSection =
    typeof configuration.Engine === 'object' && configuration.Engine ? configuration.Engine : {};
  const { builder, logger } = createTestEngineBuilder({
    configuration: { ...configuration, Engine: { ...engineSection, ...transports } },
  });
  let grpc: GrpcTransport | undefined;
  if (options.transports) {
    // The callback is asked for too: it takes the raw request bytes, so no transport serves it.
    const { command, dispatch, observations, callback } = governanceWebOperationIds;
    const Operations = [command, dispatch, observations, callback];
    addGraphQlTransport(builder, { Operations });
    addJsonRpcTransport(builder, { Operations });
    grpc = addGrpcTransport(builder, { Operations });
  }
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }, { Id: 'globex' }] });
  const governance = addTenantGovernance(
    builder,
    { InvitationExpirySweepIntervalSeconds: 0 },
    { now: clock },
  );
  const delivery =
    options.delivery === false ? undefined : addTenantGovernanceDelivery(builder, {}, { now: clock });
  delivery?.senders.add(dispatchingSender());
  const { proofFiles, ...guarded } = splitFamilyOptions(options.web);
  const endpoints = mapTenantGovernanceEndpoints(
    builder,
    { ...guarded.command, ...guarded.dispatch, ...guarded.callback, ...guarded.observations },
    { now: clock },
  );
  if (options.proofFiles !== false) mapTenantDomainHttpProofEndpoint(builder, proofFiles);
  if (options.storeProvider) builder.useStoreProvider(options.storeProvider);
  const asked: AuthorizationRequirement[] = [];
  const authorize = options.authorize === null ? undefined : (options.authorize ?? tokenAuthorizer(asked));
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    ...(authorize ? { authorize } : {}),
  });
  hosts.push(host);
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  return {
    host,
    engine: host.engine,
    governance,
    delivery,
    endpoints,
    logger,
    /** The requirements the default test authorizer was asked, in order. */
    asked,
    /** The gRPC adapter (its port and proto) when `transports` is set. */
    grpc,
    base,
    now: () => now,
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
    /** Unix seconds of the test clock. */
    unixNow: () => Math.floor(now.getTime() / 1000),
    async request(path: string, init: RequestInit = {}) {
      const response = await fetch(`${base}${path}`, init);
      const text = await response.text();
      const body = /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined;
      const headers: { get(name: string): string | null } = response.headers;
      return { status: response.status, headers, body, text };
    },
    /** A JSON POST with an optional bearer token and extra headers. */
    async post(path: string, body: unknown, token?: string, headers: Record<string, string> = {}) {
      return this.request(path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async invite(inviteeId = 'invitee@example.test', tenantId = 'acme') {
      const result = await governance.execute({
        command: 'invite',
        tenantId,
        inviteeKind: 'email',
        inviteeId,
        roles: ['member'],
      });
      return result.invitation!;
    },
  };
}

/** Closes every host started by startGovernanceWeb (call in afterEach). */
export async function closeGovernanceWebHosts(): Promise<void> {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
}
