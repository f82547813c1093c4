import type { Engine } from '@corekit/abstractions';
import type { PackLifecycleAdapter } from '@corekit/testing/pack-lifecycle-conformance';
import { z } from 'zod';
import { addAgents, agentsRegistrationKey, defineAgentExecutor } from '../index';

const toolId = 'lifecycle-tool';

function tool(engine: Engine): Record<string, unknown> {
  return engine.technologySurfaces().find((entry) => entry.id.endsWith(toolId))?.metadata ?? {};
}

/**
 * The agents pack for the pack lifecycle conformance suite: one tool whose executor is `environment.perform`;
 * work runs it (run id = work id). Runs are not staged: a run in flight at a stop may end failed, but the run
 * catalog must agree with what the executors did.
 */
export function agentsLifecycleAdapter(packageDirectory?: string): PackLifecycleAdapter {
  return {
    pack: 'agents (tool runs)',
    processFixture: packageDirectory ? { packageDirectory, fixture: 'agents-lifecycle.ts' } : undefined,
    register(builder, environment) {
      builder.addModule({ id: 'lifecycle', version: '1.0.0', capabilities: ['lifecycle.run'] });
      const agents = addAgents(builder);
      agents.addTools('lifecycle', [
        {
          id: toolId,
          displayName: 'Lifecycle tool',
          description: 'Does one unit of work',
          capabilityKeys: ['lifecycle.run'],
        },
      ]);
      agents.addExecutor(
        defineAgentExecutor({
          toolId,
          argumentSchema: z.object({ id: z.string() }),
          execute: async ({ id }, { signal }) => {
            await environment.perform(id, signal);
            return { done: id };
          },
        }),
      );
    },
    async work(engine, id) {
      const runtime = engine.resolve(agentsRegistrationKey)!.runtime;
      // Held runs must not hold the caller.
      void runtime.run(toolId, { runId: id, arguments: JSON.stringify({ id }) }).catch(() => undefined);
    },
    async claims(engine) {
      const runs = (engine.catalog('agent-tool-runs')?.entries() ?? []) as Array<{
        runId: string;
        latestOutcome: string;
      }>;
      return {
        executionEnabled: tool(engine).executionEnabled,
        succeeded: runs
          .filter((run) => run.latestOutcome === 'succeeded')
          .map((run) => run.runId)
          .sort(),
      };
    },
    async facts(engine, environment) {
      const done = environment.entries().filter((entry) => entry.event === 'done');
      return {
        executionEnabled: engine.state === 'Started',
        succeeded: [...new Set(done.map((entry) => entry.id))].sort(),
      };
    },
  };
}
