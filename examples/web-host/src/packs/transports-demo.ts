import { streamingOutput } from '@corekit/abstractions';
import {
  behaviorRuntimeKey,
  defineBehavior,
  type BehaviorRuntime,
  type EngineBuilder,
} from '@corekit/abstractions';
import { addGraphQlTransport } from '@corekit/transport-graphql';
import { addGrpcTransport, type GrpcTransport } from '@corekit/transport-grpc';
import { addJsonRpcTransport } from '@corekit/transport-jsonrpc';
// Until @corekit/web-host exports it from its index (the lead wires behavior streams):
import { z } from 'zod';
import { orderSchema } from '../orders-module';

/**
 * The transport adapters on the sample's orders behaviors: GraphQL at /graphql, JSON-RPC at /rpc, gRPC on
 * `Engine:Grpc:Port` (default 50051), plus `orders.replay`, a streaming behavior served at
 * /streams/orders.replay (SSE) and /streams/orders.replay/ws (WebSocket) once the host mounts behavior streams.
 * Each adapter serves only when `Engine:Transports` names it (GraphQL, Grpc, JsonRpc); registering them costs
 * nothing otherwise.
 */
export function addTransportsDemo(builder: EngineBuilder): { grpc: GrpcTransport } {
  addGraphQlTransport(builder);
  addJsonRpcTransport(builder);
  const grpc = addGrpcTransport(builder);
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
