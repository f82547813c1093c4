import type { CatalogDefinition } from '@corekit/abstractions';
import { agentToolRunSchema, presentRun, type AgentToolRun } from './run-model';
import type { RunStore } from './run-store';

/** The run-state catalog and every 4.4 read route: list, four views, by id, by tool; snapshot `agentToolRuns`. */
export function agentToolRunCatalog(store: RunStore): CatalogDefinition<AgentToolRun> {
  return {
    id: 'agent-tool-runs',
    displayName: 'Agent tool runs',
    description: 'Latest state of every agent tool run, newest first (arguments are never shown)',
    path: '/engine/agent-tool-runs',
    snapshotField: 'agentToolRuns',
    idField: 'runId',
    entrySchema: agentToolRunSchema,
    list: () => store.list().map(presentRun),
    views: [
      {
        segment: 'retry-pending',
        description: 'runs whose latest report is retry-scheduled',
        select: (run) => run.retryPending,
      },
      {
        segment: 'idempotency-duplicates',
        description: 'runs whose latest report is a process-local duplicate-completed suppression',
        select: (run) => run.duplicateCompleted,
      },
      {
        segment: 'approval-required',
        description: 'runs waiting on an explicit approval decision',
        attention: true,
        // Offered by operator surfaces (the console); the decision operation's own policy still decides.
        actions: [
          {
            operationId: 'agents.decide-run',
            label: 'Approve',
            params: { runId: 'runId' },
            body: { decision: 'approve' },
          },
          {
            operationId: 'agents.decide-run',
            label: 'Deny',
            params: { runId: 'runId' },
            body: { decision: 'deny' },
          },
        ],
        select: (run) => run.requiresApproval,
      },
      {
        segment: 'terminal-failures',
        description: 'runs whose latest report is a terminal failed outcome',
        attention: true,
        select: (run) => run.terminalFailure,
      },
    ],
    narrowings: [
      {
        segment: 'by-tool',
        parameter: 'toolId',
        description: 'all runs reported for one tool',
        select: (run, toolId) => run.toolId === toolId,
      },
    ],
  };
}
