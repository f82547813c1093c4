import type { ModuleDefinition } from '@corekit/abstractions';
import {
  createEngineBuilder,
  type CoreEngineBuilder,
  createMemoryLogger,
  manualClock,
  type ManualClock,
} from '@corekit/engine-core';
import { z } from 'zod';
import { addAgents, type AddAgentsOptions, type AgentsRegistration } from '../add-agents';
import { AgentToolError, defineAgentExecutor } from '../tool-definitions';

export const ordersModule: ModuleDefinition = {
  id: 'orders',
  version: '1.0.0',
  capabilities: ['orders.read', 'orders.refund'],
};

/** A scripted executor: each call takes the next step (`ok` answers, `fail` throws retryable, `fatal` not). */
export interface Script {
  steps: Array<'ok' | 'fail' | 'fatal' | 'hang'>;
  calls: number;
  signals: AbortSignal[];
}

export function script(...steps: Script['steps']): Script {
  return { steps, calls: 0, signals: [] };
}

/**
 * Two tools of the `orders` module: `lookup-order` (no approval) and `refund-order` (approval required when
 * the amount is above 100). Both executors follow the script given.
 */
export function registerOrderTools(
  agents: AgentsRegistration,
  lookup: Script,
  refund: Script = script(),
): void {
  agents.addTools('orders', [
    {
      id: 'lookup-order',
      displayName: 'Look up an order',
      description: 'Answers the state of one order',
      capabilityKeys: ['orders.read'],
    },
    {
      id: 'refund-order',
      displayName: 'Refund an order',
      description: 'Refunds an order; large amounts need approval',
      capabilityKeys: ['orders.refund'],
      approval: ({ arguments: args }) => (args as { amount: number }).amount > 100,
    },
  ]);
  const step =
    (current: Script, output: unknown) => async (_args: unknown, context: { signal: AbortSignal }) => {
      const next = current.steps[current.calls] ?? 'ok';
      current.calls += 1;
      current.signals.push(context.signal);
      if (next === 'fail')
        throw new Error('upstream refused: password=hunter2 at postgres://app:s3cret@db/orders');
      if (next === 'fatal')
        throw new AgentToolError('ORDER_LOCKED', 'the order is locked', { retryable: false });
      if (next === 'hang') return new Promise(() => undefined);
      return output;
    };
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'lookup-order',
      argumentSchema: z.object({ orderId: z.string().min(1) }),
      execute: (args, context) =>
        step(lookup, { orderId: args.orderId, state: 'shipped', token: 'abc' })(args, context),
    }),
  );
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'refund-order',
      argumentSchema: z.object({ orderId: z.string(), amount: z.number().positive() }),
      execute: (args, context) => step(refund, { refunded: args.amount })(args, context),
    }),
  );
}

export interface Fixture {
  readonly clock: ManualClock;
  readonly logger: ReturnType<typeof createMemoryLogger>;
  readonly builder: CoreEngineBuilder;
}

/** A builder with the orders module, a manual clock and a memory logger. */
export function fixtureBuilder(configuration: Record<string, unknown> = {}, clock = manualClock()): Fixture {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    configuration,
    environment: {},
    clock,
    logger,
    contentRoot: __dirname,
  });
  builder.addModule(ordersModule);
  return { clock, logger, builder };
}

export function agentsOn(fixture: Fixture, options: AddAgentsOptions = {}): AgentsRegistration {
  return addAgents(fixture.builder, { clock: fixture.clock, ...options });
}
