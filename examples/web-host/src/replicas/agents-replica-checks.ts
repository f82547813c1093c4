import {
  answersOnReplicas,
  sameOnReplicas,
  type ReplicaAnswer,
  type ReplicaSet,
} from '@corekit/testing/replica-harness';
import { agentsDemoTokens } from '../packs/agents-demo';
import type { ReplicaCheck, ReplicaCheckContext } from './replica-checks';
import { indexes } from './surfaces';

/**
 * The agents settings the replica test gives every sample host: a short refresh and lease so a dead owner is
 * noticed quickly (the lease still leaves an owner slowed by a loaded machine 7.5 s to renew), and a long
 * attempt timeout so a run held open by `wait-for-callback` never times out while
 * a replica starts.
 */
export const agentsReplicaEnvironment = {
  Engine__Agents__SharedStoreRefreshMilliseconds: '200',
  Engine__Agents__RunLeaseMilliseconds: '8000',
  Engine__Agents__RunLeaseRenewMilliseconds: '500',
  Engine__Agents__ExecutionTimeoutMilliseconds: '600000',
};
/**
 * The bounds the checks wait within: a write shows on every replica within the refresh interval (200 ms) plus
 * a store round trip; a dead owner's run is interrupted within the lease plus one refresh. The margins are
 * for a loaded machine, never the expected time.
 */
const readBoundMs = 15_000;
const takeoverBoundMs = 8000 + 200 + 25_000;

type Run = Record<string, any>;

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

export async function startRun(
  set: ReplicaSet,
  on: number,
  toolId: string,
  body: Record<string, unknown>,
  token: string = agentsDemoTokens.agent,
): Promise<ReplicaAnswer<Run>> {
  return set.replica(on).json<Run>(`/engine/agent-tools/${toolId}/runs`, {
    method: 'POST',
    headers: bearer(token),
    body: JSON.stringify(body),
  });
}

/** The run as each replica's by-id route answers it (status and entry). */
const runRoute = (runId: string) => `/engine/agent-tool-runs/${runId}`;
const entryOf = (answer: ReplicaAnswer) => ({ status: answer.status, run: answer.body as Run });

/** The execution surface of each replica (per-process fields included). */
async function executionSurfaces(set: ReplicaSet, on: readonly number[]): Promise<Record<string, any>[]> {
  return Promise.all(
    on.map(async (index) => {
      const { body } = await set
        .replica(index)
        .json<Array<{ id: string; metadata: Record<string, any> }>>('/engine/technology-surfaces');
      return body.find((surface) => surface.id === 'agent-tool-execution')!.metadata;
    }),
  );
}

/** Starts a run that executes until its callback is sent, on replica `owner`; answers when every replica sees it executing. */
async function holdRun(set: ReplicaSet, context: ReplicaCheckContext, owner: number, name: string) {
  const runId = context.unique(name);
  const callbackId = context.unique(`${name}-cb`);
  // The request answers when the run ends: it stays pending while the run executes.
  const pending = startRun(set, owner, 'wait-for-callback', {
    runId,
    arguments: JSON.stringify({ callbackId }),
  });
  pending.catch(() => undefined);
  const seen = await answersOnReplicas(
    set,
    runRoute(runId),
    (answer) =>
      answer.status === 200 && answer.run.latestOutcome === 'accepted' && answer.run.ownerReplicaId !== null,
    { select: entryOf, withinMs: readBoundMs, on: indexes(context.count) },
  );
  for (const answer of seen)
    expect(answer).toMatchObject({ status: 200, run: { latestOutcome: 'accepted' } });
  const [ownerSurface] = await executionSurfaces(set, [owner]);
  expect(seen[0].run.ownerReplicaId).toBe(ownerSurface.replicaId);
  return { runId, callbackId, pending };
}

export const agentsReplicaChecks: readonly ReplicaCheck[] = [
  {
    pack: 'agents',
    name: 'a run created on A reads the same on every replica (list, by id, snapshot) within the bound',
    async run(set, context) {
      const runId = context.unique('lookup');
      const created = await startRun(set, 0, 'lookup-ticket', { runId, arguments: '{"ticketId":"T-100"}' });
      expect(created).toMatchObject({ status: 200, body: { outcome: 'succeeded' } });
      const byId = await sameOnReplicas(set, runRoute(runId), {
        select: entryOf,
        done: (answer) => answer.status === 200,
        withinMs: readBoundMs,
      });
      for (const answer of byId)
        expect(answer).toMatchObject({ status: 200, run: { runId, latestOutcome: 'succeeded' } });
      const listed = await answersOnReplicas(
        set,
        '/engine/snapshot',
        (runs: Run[]) => runs.some((run) => run.runId === runId),
        {
          select: (answer) => (answer.body as { agentToolRuns: Run[] }).agentToolRuns,
          withinMs: readBoundMs,
        },
      );
      for (const runs of listed) expect(runs.map((run) => run.runId)).toContain(runId);
      for (const surface of await executionSurfaces(set, indexes(context.count))) {
        // The copy follows the store's change feed: the bound is measured, not the 200 ms refresh interval.
        expect(surface).toMatchObject({
          runStateScope: 'shared',
          runCatalogSource: 'shared-store-change-feed',
          runCatalogStalenessBoundMilliseconds: expect.any(Number),
          sharedStatePropagation: 'change-feed',
          sharedStateFeedConnected: true,
          runOwnership: 'replica-lease',
        });
      }
    },
  },
  {
    pack: 'agents',
    name: 'a run waiting on A is listed by every replica; decided on the last, every replica shows the decision',
    async run(set, context) {
      const runId = context.unique('refund');
      const waiting = await startRun(set, 0, 'issue-refund', {
        runId,
        arguments: '{"ticketId":"T-100","amount":25}',
      });
      expect(waiting).toMatchObject({ status: 200, body: { outcome: 'approval-required' } });
      const listed = await answersOnReplicas(
        set,
        '/engine/agent-tool-runs/approval-required',
        (ids: string[]) => ids.includes(runId),
        { select: (answer) => (answer.body as Run[]).map((run) => run.runId), withinMs: readBoundMs },
      );
      for (const ids of listed) expect(ids).toContain(runId);
      const decider = context.count - 1;
      const decided = await set.replica(decider).json<Run>(`/engine/agent-tool-runs/${runId}/decision`, {
        method: 'POST',
        headers: bearer(agentsDemoTokens.approver),
        body: JSON.stringify({ decision: 'approve', reason: 'checked' }),
      });
      expect(decided).toMatchObject({
        status: 200,
        body: { outcome: 'succeeded', output: { refunded: 25 } },
      });
      const everywhere = await sameOnReplicas(set, runRoute(runId), {
        select: entryOf,
        done: (answer) => answer.run.latestOutcome === 'succeeded',
        withinMs: readBoundMs,
      });
      for (const answer of everywhere) {
        expect(answer.run).toMatchObject({
          latestOutcome: 'succeeded',
          requiresApproval: false,
          approval: { state: 'approved', decidedBy: 'demo-approver' },
        });
      }
      // A second decision, on A this time, sees the decision B wrote.
      const again = await set.replica(0).json(`/engine/agent-tool-runs/${runId}/decision`, {
        method: 'POST',
        headers: bearer(agentsDemoTokens.approver),
        body: JSON.stringify({ decision: 'deny' }),
      });
      expect(again.status).toBe(409);
    },
  },
  {
    pack: 'agents',
    name: 'a replica that starts while A executes a run never fails it; the run ends on A as it should',
    async run(set, context) {
      const restarted = context.count - 1;
      const { runId, callbackId, pending } = await holdRun(set, context, 0, 'live');
      await set.restart(restarted);
      // The new process has started (its recovery ran before it listened) and refreshed at least once after.
      const [fresh] = await answersOnReplicas(
        set,
        '/engine/technology-surfaces',
        (refreshed: string | null) => refreshed !== null,
        {
          on: [restarted],
          withinMs: readBoundMs,
          select: (answer) =>
            (answer.body as Array<{ id: string; metadata: Record<string, any> }>).find(
              (surface) => surface.id === 'agent-tool-execution',
            )!.metadata.runCatalogRefreshedAtUtc as string | null,
        },
      );
      expect(fresh).not.toBeNull();
      const during = await sameOnReplicas(set, runRoute(runId), { select: entryOf, withinMs: readBoundMs });
      for (const answer of during)
        expect(answer.run).toMatchObject({ latestOutcome: 'accepted', outcomeCounts: { failed: 0 } });
      const sent = await startRun(set, restarted, 'send-callback', {
        arguments: JSON.stringify({ callbackId }),
      });
      expect(sent).toMatchObject({ status: 200, body: { outcome: 'succeeded' } });
      expect(await pending).toMatchObject({
        status: 200,
        body: { outcome: 'succeeded', output: { callbackId } },
      });
      const after = await sameOnReplicas(set, runRoute(runId), {
        select: entryOf,
        done: (answer) => answer.run.latestOutcome === 'succeeded',
        withinMs: readBoundMs,
      });
      for (const answer of after) {
        expect(answer.run).toMatchObject({
          outcomeCounts: { failed: 0, succeeded: 1 },
          ownerReplicaId: null,
        });
      }
    },
  },
  {
    pack: 'agents',
    name: 'A killed mid-run: after its lease the run is reported interrupted once, by one surviving replica',
    async run(set, context) {
      const survivors = indexes(context.count).slice(1);
      const { runId } = await holdRun(set, context, 0, 'orphan');
      const before = (await executionSurfaces(set, survivors)).map(
        (surface) => surface.leaseInterruptedRunCount as number,
      );
      await set.kill(0);
      const after = await sameOnReplicas(set, runRoute(runId), {
        on: survivors,
        select: entryOf,
        done: (answer) => answer.run.latestOutcome === 'failed',
        withinMs: takeoverBoundMs,
      });
      for (const answer of after) {
        expect(answer.run).toMatchObject({
          latestOutcome: 'failed',
          terminalFailure: true,
          errorSummary: { code: 'AGENT_TOOL_RUN_INTERRUPTED' },
          outcomeCounts: { accepted: 1, failed: 1 },
          ownerReplicaId: null,
        });
      }
      const counted = (await executionSurfaces(set, survivors)).map(
        (surface, index) => (surface.leaseInterruptedRunCount as number) - before[index],
      );
      expect(counted.reduce((total, count) => total + count, 0)).toBe(1);
      await set.restart(0);
    },
  },
];
