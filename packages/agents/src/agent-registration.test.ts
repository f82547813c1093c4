import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileStoreProvider, manualClock } from '@corekit/engine-core';
import { z } from 'zod';
import { addAgents } from './add-agents';
import { agentsOn, fixtureBuilder, registerOrderTools, script } from './test-support/agents-fixture';

describe('agents registration', () => {
  it('idempotency durability and scope follow the store provider installed in code, after addAgents', async () => {
    const idempotencyOf = async (directory?: string) => {
      const fixture = fixtureBuilder();
      agentsOn(fixture, { EnableExecutionIdempotency: true });
      if (directory) fixture.builder.useStoreProvider(new FileStoreProvider({ directory }));
      const engine = fixture.builder.build();
      await engine.start();
      try {
        const metadata = engine
          .technologySurfaces()
          .find((item) => item.id === 'agent-tool-execution')!.metadata;
        return [metadata.idempotencyStoreKind, metadata.idempotencyDurability, metadata.idempotencyScope];
      } finally {
        await engine.stop();
      }
    };
    expect(await idempotencyOf()).toEqual(['memory', 'none', 'process-local']);
    const directory = mkdtempSync(path.join(tmpdir(), 'agents-posture-'));
    try {
      expect(await idempotencyOf(directory)).toEqual(['file', 'durable-local', 'node-local']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('fails the build naming every unknown reference', () => {
    const fixture = fixtureBuilder();
    const agents = agentsOn(fixture);
    agents.addTools('ghost-module', [
      {
        id: 'broken',
        displayName: 'Broken',
        description: 'references nothing that exists',
        capabilityKeys: ['orders.read', 'orders.delete'],
        executionGraphId: 'no-graph',
        hostedExecutionId: 'no-execution',
      },
    ]);
    agents.addExecutor({ toolId: 'missing-tool', argumentSchema: z.object({}), execute: () => null });
    let message = '';
    try {
      fixture.builder.build();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('sourceModuleId "ghost-module" is not a registered module');
    expect(message).toContain('capability key "orders.delete" is offered by no module');
    expect(message).not.toContain('"orders.read" is offered');
    expect(message).toContain('executionGraphId "no-graph"');
    expect(message).toContain('hostedExecutionId "no-execution"');
    expect(message).toContain('unknown agent tool "missing-tool"');
  });

  it('refuses a second call and unknown configuration keys', () => {
    const fixture = fixtureBuilder();
    agentsOn(fixture);
    expect(() => addAgents(fixture.builder)).toThrow(/already/);
    const other = fixtureBuilder({ Engine: { Agents: { ExecutionMaxAtempts: 2 } } });
    addAgents(other.builder);
    expect(() => other.builder.configuration.assertKnownKeys()).toThrow(
      /ExecutionMaxAtempts.*ExecutionMaxAttempts/s,
    );
    expect(() => addAgents(fixtureBuilder().builder, { ExecutionMaxAttempts: 11 })).toThrow(
      /ExecutionMaxAttempts/,
    );
  });

  it('reports a tool without executor as awaiting-executor and answers 409 for its runs', async () => {
    const fixture = fixtureBuilder();
    const agents = agentsOn(fixture);
    agents.addTools('orders', [{ id: 'idle-tool', displayName: 'Idle', description: 'no executor yet' }]);
    const engine = fixture.builder.build();
    await engine.start();
    expect(fixture.logger.records.some((record) => record.eventId === 3251)).toBe(true);
    await expect(
      engine.operations.invoke('agents.run-tool', { params: { toolId: 'idle-tool' }, body: {} }),
    ).rejects.toMatchObject({ kind: 'conflict', code: 'AGENT_TOOL_EXECUTOR_MISSING' });
    const surface = engine.technologySurfaces().find((item) => item.id === 'agent-tool:idle-tool')!;
    expect(surface.metadata).toMatchObject({
      executorConfigured: false,
      executorCount: 0,
      executionOwnership: 'awaiting-executor',
      runtimeState: 'awaiting-executor',
    });
    const execution = engine.technologySurfaces().find((item) => item.id === 'agent-tool-execution')!;
    expect(execution.metadata).toMatchObject({
      retryPolicy: 'none',
      retryScope: 'process-local',
      idempotencyPolicy: 'none',
    });
    expect(engine.diagnostics().eventIds.some((range: any) => JSON.stringify(range).includes('3240'))).toBe(
      true,
    );
    await engine.stop();
  });

  it('answers not-active for a tool linked to a hosted execution that is not active', async () => {
    const fixture = fixtureBuilder();
    fixture.builder.addCatalogEntries('hosted-executions', 'orders', [
      {
        id: 'order-pump',
        displayName: 'Order pump',
        sourceModuleId: 'orders',
        kind: 'pump',
        startsWithHost: false,
      },
    ]);
    const agents = agentsOn(fixture);
    agents.addTools('orders', [
      { id: 'pump-tool', displayName: 'Pump', description: 'd', hostedExecutionId: 'order-pump' },
    ]);
    agents.addExecutor({ toolId: 'pump-tool', argumentSchema: z.object({}), execute: () => 'ok' });
    const engine = fixture.builder.build();
    await engine.start();
    await expect(
      engine.operations.invoke('agents.run-tool', { params: { toolId: 'pump-tool' }, body: {} }),
    ).rejects.toMatchObject({ kind: 'not-active' });
    await engine.stop();
  });

  it('keeps a run waiting for approval across a restart with the file store', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'agents-store-'));
    const configuration = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
    try {
      const clock = manualClock();
      const first = fixtureBuilder(configuration, clock);
      registerOrderTools(agentsOn(first), script());
      const engine = first.builder.build();
      await engine.start();
      const waiting = await engine.operations.invoke('agents.run-tool', {
        params: { toolId: 'refund-order' },
        body: { runId: 'survivor', arguments: '{"orderId":"a","amount":500}' },
      });
      expect(waiting.body).toMatchObject({ outcome: 'approval-required' });
      await engine.stop();

      const refund = script();
      const second = fixtureBuilder(configuration, clock);
      registerOrderTools(agentsOn(second), script(), refund);
      const restarted = second.builder.build();
      await restarted.start();
      const view = restarted.catalog('agent-tool-runs')!;
      expect(view.find('survivor')).toMatchObject({ requiresApproval: true, approval: { state: 'pending' } });
      const approved = await restarted.operations.invoke('agents.decide-run', {
        params: { runId: 'survivor' },
        body: { decision: 'approve', actorId: 'supervisor-1' },
      });
      expect(approved.body).toMatchObject({ outcome: 'succeeded', output: { refunded: 500 } });
      expect(refund.calls).toBe(1);
      await restarted.stop();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
