import { addAgents, AgentToolError, defineAgentExecutor, type AddAgentsOptions } from '../index';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { z } from 'zod';

/** Steps of a scripted executor: `ok` answers, `fail` throws a retryable error, `fatal` a non-retryable one. */
export type Step = 'ok' | 'fail' | 'fatal';

/**
 * Shared by the tests of the agent adapters (agents-ai-sdk, agents-mcp), which import this file by path.
 * A builder with the `orders` module and two tools: `lookup-order` (follows `lookup` steps) and
 * `refund-order` (approval required above an amount of 100). Retry: 3 attempts, no delay. `calls` counts the
 * executions of each tool.
 */
export function ordersEngineBuilder(lookup: Step[] = [], options: AddAgentsOptions = {}) {
  const builder = createEngineBuilder({
    configuration: {},
    environment: {},
    logger: createMemoryLogger(),
    contentRoot: __dirname,
  });
  builder.addModule({ id: 'orders', version: '1.0.0', capabilities: ['orders.read', 'orders.refund'] });
  const agents = addAgents(builder, {
    ExecutionMaxAttempts: 3,
    ExecutionRetryDelayMilliseconds: 0,
    ...options,
  });
  const calls = { lookup: 0, refund: 0 };
  agents.addTools('orders', [
    { id: 'lookup-order', displayName: 'Look up an order', description: 'State of one order' },
    {
      id: 'refund-order',
      displayName: 'Refund an order',
      description: 'Refunds an order; above 100 needs approval',
      approval: ({ arguments: args }) => (args as { amount: number }).amount > 100,
    },
  ]);
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'lookup-order',
      argumentSchema: z.object({ orderId: z.string().min(1).describe('the order id') }),
      execute: ({ orderId }) => {
        const step = lookup[calls.lookup] ?? 'ok';
        calls.lookup += 1;
        if (step === 'fail') throw new Error('upstream busy');
        if (step === 'fatal')
          throw new AgentToolError('ORDER_LOCKED', 'the order is locked', { retryable: false });
        return { orderId, state: 'shipped' };
      },
    }),
  );
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'refund-order',
      argumentSchema: z.object({ orderId: z.string(), amount: z.number().positive() }),
      execute: ({ amount }) => {
        calls.refund += 1;
        return { refunded: amount };
      },
    }),
  );
  return { builder, agents, calls };
}

/** `ordersEngineBuilder` built and started; `runs()` reads the agent-tool-runs catalog. */
export async function ordersEngine(lookup: Step[] = [], options: AddAgentsOptions = {}) {
  const { builder, agents, calls } = ordersEngineBuilder(lookup, options);
  const engine = builder.build();
  await engine.start();
  const runs = () => engine.catalog('agent-tool-runs')!;
  return { engine, agents, calls, runs, stop: () => engine.stop() };
}
