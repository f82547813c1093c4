import { defineAgentExecutor } from './index';
import { z } from 'zod';
import { agenticRuntimeOptionsSchema, agentsSectionPath } from './agents-options';
import { AgentsPackRuntime } from './agents-pack-runtime';
import { fixtureBuilder } from './test-support/agents-fixture';

function packOn() {
  const fixture = fixtureBuilder();
  const settings = fixture.builder.configuration.bind(agentsSectionPath, agenticRuntimeOptionsSchema, {});
  const pack = new AgentsPackRuntime(fixture.builder, settings, () => fixture.clock.now());
  fixture.builder.addLifecycleHooks(pack.lifecycleHooks());
  pack.tools.addTools('orders', [
    { id: 'lookup-order', displayName: 'Look up an order', description: 'state', capabilityKeys: [] },
  ]);
  return { ...fixture, pack };
}

describe('AgentsPackRuntime', () => {
  it('is active only while the engine is started', async () => {
    const { builder, pack } = packOn();
    pack.tools.addExecutor(
      defineAgentExecutor({
        toolId: 'lookup-order',
        argumentSchema: z.object({}),
        execute: async () => ({}),
      }),
    );
    expect(pack.isActive(undefined)).toBe(false);
    const engine = builder.build();
    expect(pack.isActive(undefined)).toBe(false);
    await engine.start();
    expect(pack.isActive(undefined)).toBe(true);
    expect(pack.isActive('no-such-hosted-execution')).toBe(false);
    await engine.stop();
    expect(pack.isActive(undefined)).toBe(false);
  });

  it('warns at build about a tool without an executor', () => {
    const { builder, logger } = packOn();
    builder.build();
    expect(logger.records).toContainEqual(expect.objectContaining({ code: 'AGENT_TOOL_AWAITING_EXECUTOR' }));
  });

  it('runs a tool in process through the run service and lists it with its executor', async () => {
    const { builder, pack } = packOn();
    const executor = defineAgentExecutor({
      toolId: 'lookup-order',
      argumentSchema: z.object({ orderId: z.string() }),
      execute: async (args) => ({ orderId: args.orderId, state: 'shipped' }),
    });
    pack.tools.addExecutor(executor);
    const engine = builder.build();
    await engine.start();
    try {
      const runtime = pack.toolRuntime();
      expect(runtime.tools().map((tool) => [tool.id, tool.executor !== undefined])).toEqual([
        ['lookup-order', true],
      ]);
      const result = await runtime.run('lookup-order', { arguments: '{"orderId":"o-1"}' });
      expect(result).toMatchObject({ outcome: 'succeeded', output: { orderId: 'o-1', state: 'shipped' } });
      expect(pack.store.list()).toHaveLength(1);
      expect(pack.surfaces().length).toBeGreaterThan(0);
    } finally {
      await engine.stop();
    }
  });
});
