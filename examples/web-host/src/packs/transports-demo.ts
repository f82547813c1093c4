import { allTenants, streamingOutput, type AuthorizationDecision } from '@corekit/abstractions';
import {
  behaviorRuntimeKey,
  defineBehavior,
  type BehaviorRuntime,
  type EngineBuilder,
} from '@corekit/abstractions';
import type { AuthorizationRequirement } from '@corekit/web-host';
import { addGraphQlTransport } from '@corekit/transport-graphql';
import { addGrpcTransport, type GrpcTransport } from '@corekit/transport-grpc';
import { addJsonRpcTransport } from '@corekit/transport-jsonrpc';
// Until @corekit/web-host exports it from its index (the lead wires behavior streams):
import { z } from 'zod';
import { bearerToken } from '../bearer-token';
import { orderSchema } from '../orders-module';
import { governanceDemoTokenTenants, tenantsAllow } from './governance-web-demo';

/**
 * The operations the sample serves over GraphQL, JSON-RPC and gRPC besides the behaviors (each adapter's
 * `Operations` option): a governance command, an agent run and an event publication, with the input schema,
 * authorization policy and tenant resource they have on REST (docs/adr/0001-one-callable.md).
 */
export const transportDemoOperations = [
  'tenant-governance-web.administration-command',
  'agents.run-tool',
  'eventing.publish',
];

/** The callables a tenant-scoped demo token may use beyond the governance policies: in its own tenant only. */
const tenantScopedCallables = new Set(['agents.run-tool', 'eventing.publish']);

/**
 * The demo tenant tokens (`demo-acme-admin`, `demo-globex-admin`) run agent tools and publish events in their own
 * tenant (the resource's `tenantId`: a run's `metadata.tenantId`, a publication's `tenantId`) and are refused
 * (403) in any other or when none is named, on REST and every transport alike. Answers null for another token
 * or callable (the rest of the sample's hook decides).
 */
export function tenantScopedDemoAuthorize(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  requirement: AuthorizationRequirement | undefined,
): AuthorizationDecision | null {
  if (!requirement?.operationId || !tenantScopedCallables.has(requirement.operationId)) return null;
  const token = bearerToken(headers);
  const tenants = token ? governanceDemoTokenTenants[token] : undefined;
  if (!tenants || tenants.includes(allTenants)) return null;
  if (!tenantsAllow(tenants, requirement.resource)) {
    return { outcome: 'forbidden', reason: `this token acts only in tenants ${tenants.join(', ')}` };
  }
  return { outcome: 'allowed', principal: { subject: `${tenants.join('-')}-admin` } };
}

/**
 * The transport adapters on the sample's orders behaviors: GraphQL at /graphql, JSON-RPC at /rpc, gRPC on
 * `Engine:Grpc:Port` (default 50051), plus `orders.replay`, a streaming behavior served at
 * /streams/orders.replay (SSE) and /streams/orders.replay/ws (WebSocket) once the host mounts behavior streams.
 * Each adapter serves only when `Engine:Transports` names it (GraphQL, Grpc, JsonRpc); registering them costs
 * nothing otherwise. Besides the behaviors, each serves `transportDemoOperations` (when their packs are there).
 */
export function addTransportsDemo(builder: EngineBuilder): { grpc: GrpcTransport } {
  addGraphQlTransport(builder, { Operations: transportDemoOperations });
  addJsonRpcTransport(builder, { Operations: transportDemoOperations });
  const grpc = addGrpcTransport(builder, { Operations: transportDemoOperations });
  let runtime: BehaviorRuntime | undefined;
  builder.addLifecycleHooks({
    id: 'transports-demo',
    started(context) {
      runtime = context.resolve(behaviorRuntimeKey);
    },
  });
  builder.addModule({
    id: 'orders-streams',
    version: '1.0.0',
    displayName: 'Orders streams',
    description: 'Streams the orders one by one (a streaming behavior for the SSE and WebSocket transports)',
    behaviors: [
      defineBehavior({
        id: 'orders.replay',
        description: 'The newest orders, one event each, oldest first',
        input: z.object({ sku: z.string().optional() }),
        output: streamingOutput(orderSchema),
        handler: async function* ({ sku }, { signal }) {
          const orders = (await runtime!.invoke(
            'orders.list',
            { sku },
            { transport: 'in-process', signal },
          )) as z.infer<typeof orderSchema>[];
          for (const order of [...orders].reverse()) {
            if (signal.aborted) return;
            yield order;
          }
        },
      }),
    ],
  });
  return { grpc };
}
