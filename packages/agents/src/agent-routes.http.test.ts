import type { AuthorizationDecision } from '@corekit/abstractions';
import { createWebHost, type WebHost } from '@corekit/web-host';
import {
  agentsOn,
  fixtureBuilder,
  registerOrderTools,
  script,
  type Fixture,
} from './test-support/agents-fixture';

const lookup = script('fail', 'ok', 'ok', 'ok', 'fatal');
const refund = script();
let host: WebHost;
let base: string;
let fixture: Fixture;

/** Bearer tokens of the test: `runner` may run tools, `approver` may also decide. */
function authorize(
  request: { headers: Record<string, unknown> },
  requirement?: { policy: string | null },
): AuthorizationDecision {
  const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
  if (!token) return { outcome: 'unauthenticated' };
  if (requirement?.policy === 'agents.approve' && token !== 'approver') return { outcome: 'forbidden' };
  return { outcome: 'allowed', principal: { subject: `${token}-1` } };
}

async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const run = (toolId: string, body: unknown, token = 'runner') =>
  call(`/engine/agent-tools/${toolId}/runs`, { method: 'POST', body, token });

beforeAll(async () => {
  fixture = fixtureBuilder();
  const agents = agentsOn(fixture, {
    ExecutionMaxAttempts: 2,
    ExecutionRetryDelayMilliseconds: 1500,
    EnableExecutionIdempotency: true,
    ExecutionIdempotencyRetentionMinutes: 5,
  });
  registerOrderTools(agents, lookup, refund);
  agents.addTools('orders', [{ id: 'idle-tool', displayName: 'Idle', description: 'no executor' }]);
  host = createWebHost(fixture.builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: authorize as never,
  });
  base = (await host.listen()).url.replace('localhost', '127.0.0.1');
});

afterAll(async () => {
  await host.close();
});

describe('agent routes over HTTP', () => {
  it('refuses unknown tools (404), tools without executor (409), bad bodies and arguments (400), no credentials (401)', async () => {
    expect(await run('nope', {})).toMatchObject({ status: 404, body: { code: 'AGENT_TOOL_NOT_FOUND' } });
    expect(await run('idle-tool', {})).toMatchObject({
      status: 409,
      body: { code: 'AGENT_TOOL_EXECUTOR_MISSING' },
    });
    expect((await run('lookup-order', { arguments: '{"orderId":' })).status).toBe(400);
    expect((await run('lookup-order', { arguments: '{"orderId":1}' })).status).toBe(400);
    expect((await run('lookup-order', { arguments: 5 })).status).toBe(400);
    expect((await run('lookup-order', '[not json')).status).toBe(400);
    expect((await call('/engine/agent-tools/lookup-order/runs', { method: 'POST', body: {} })).status).toBe(
      401,
    );
    expect(lookup.calls).toBe(0);
  });

  it('retries and succeeds on the second attempt; the run is retry-pending in between', async () => {
    const pending = run('lookup-order', {
      runId: 'retry-1',
      arguments: '{"orderId":"o-1"}',
      actorId: 'agent-7',
    });
    let seen = false;
    for (let poll = 0; poll < 200 && !seen; poll += 1) {
      const view = await call('/engine/agent-tool-runs/retry-pending');
      seen = view.body.some((entry: { runId: string }) => entry.runId === 'retry-1');
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen).toBe(true);
    const answer = await pending;
    expect(answer).toMatchObject({
      status: 200,
      body: {
        outcome: 'succeeded',
        attempt: 2,
        retryScheduledCount: 1,
        actorId: 'agent-7',
        output: { orderId: 'o-1' },
      },
    });
    expect((await call('/engine/agent-tool-runs/retry-pending')).body).toEqual([]);
    expect((await call('/engine/agent-tool-runs/retry-1')).body).toMatchObject({
      latestOutcome: 'succeeded',
      attempt: 2,
    });
  });

  it('suppresses a duplicate inside the window and runs it again after', async () => {
    const first = await run('lookup-order', { runId: 'dup-1', arguments: '{"orderId":"o-2"}' });
    expect(first.body.outcome).toBe('succeeded');
    fixture.clock.advance(4 * 60_000);
    const duplicate = await run('lookup-order', { runId: 'dup-1', arguments: '{"orderId":"o-2"}' });
    expect(duplicate.body).toMatchObject({
      outcome: 'skipped',
      duplicateCompleted: true,
      output: first.body.output,
    });
    const duplicates = (await call('/engine/agent-tool-runs/idempotency-duplicates')).body;
    expect(duplicates.map((entry: { runId: string }) => entry.runId)).toEqual(['dup-1']);
    fixture.clock.advance(2 * 60_000);
    const again = await run('lookup-order', { runId: 'dup-1', arguments: '{"orderId":"o-2"}' });
    expect(again.body).toMatchObject({ outcome: 'succeeded', duplicateCompleted: false });
    expect((await call('/engine/agent-tool-runs/idempotency-duplicates')).body).toEqual([]);
    expect(lookup.calls).toBe(4);
  });

  it('reports a terminal failure', async () => {
    const failed = await run('lookup-order', { runId: 'fail-1', arguments: '{"orderId":"o-3"}' });
    expect(failed.body).toMatchObject({
      outcome: 'failed',
      terminalFailure: true,
      error: { code: 'ORDER_LOCKED' },
    });
    const failures = (await call('/engine/agent-tool-runs/terminal-failures')).body;
    expect(failures.map((entry: { runId: string }) => entry.runId)).toEqual(['fail-1']);
  });

  it('waits for approval; the decision needs the approve policy; approve runs it, deny ends it', async () => {
    const waiting = await run('refund-order', {
      runId: 'refund-1',
      arguments: '{"orderId":"o-4","amount":250}',
    });
    expect(waiting.body).toMatchObject({
      outcome: 'approval-required',
      requiresApproval: true,
      actorId: 'runner-1',
    });
    await run('refund-order', { runId: 'refund-2', arguments: '{"orderId":"o-5","amount":400}' });
    const queue = (await call('/engine/agent-tool-runs/approval-required')).body;
    expect(queue.map((entry: { runId: string }) => entry.runId).sort()).toEqual(['refund-1', 'refund-2']);
    const decide = (runId: string, decision: string, token?: string) =>
      call(`/engine/agent-tool-runs/${runId}/decision`, { method: 'POST', body: { decision }, token });
    expect((await decide('refund-1', 'approve')).status).toBe(401);
    expect((await decide('refund-1', 'approve', 'runner')).status).toBe(403);
    expect(refund.calls).toBe(0);
    const approved = await decide('refund-1', 'approve', 'approver');
    expect(approved).toMatchObject({
      status: 200,
      body: {
        outcome: 'succeeded',
        output: { refunded: 250 },
        approval: { state: 'approved', decidedBy: 'approver-1' },
      },
    });
    const denied = await decide('refund-2', 'deny', 'approver');
    expect(denied.body).toMatchObject({
      outcome: 'denied',
      terminalFailure: false,
      approval: { state: 'denied' },
    });
    expect(await decide('refund-2', 'approve', 'approver')).toMatchObject({ status: 409 });
    expect((await decide('nope', 'approve', 'approver')).status).toBe(404);
    expect((await call('/engine/agent-tool-runs/approval-required')).body).toEqual([]);
    const failures = (await call('/engine/agent-tool-runs/terminal-failures')).body;
    expect(failures.map((entry: { runId: string }) => entry.runId)).toEqual(['fail-1']);
    expect(refund.calls).toBe(1);
  });

  it('lists, finds by id (404 when absent), narrows by tool and appears in the snapshot and surfaces', async () => {
    const all = (await call('/engine/agent-tool-runs')).body;
    expect(all.map((entry: { runId: string }) => entry.runId).sort()).toEqual([
      'dup-1',
      'fail-1',
      'refund-1',
      'refund-2',
      'retry-1',
    ]);
    expect(JSON.stringify(all)).not.toContain('o-4');
    expect((await call('/engine/agent-tool-runs/no-such-run')).status).toBe(404);
    const refunds = (await call('/engine/agent-tool-runs/by-tool/refund-order')).body;
    expect(refunds.map((entry: { runId: string }) => entry.runId).sort()).toEqual(['refund-1', 'refund-2']);
    const snapshot = (await call('/engine/snapshot')).body;
    expect(snapshot.agentToolRuns).toHaveLength(5);
    const surfaces = (await call('/engine/technology-surfaces')).body;
    const list = Array.isArray(surfaces) ? surfaces : surfaces.surfaces;
    const lookupSurface = list.find((surface: { id: string }) => surface.id === 'agent-tool:lookup-order');
    expect(lookupSurface.metadata).toMatchObject({
      capabilityKeys: ['orders.read'],
      executorConfigured: true,
      runCount: 3,
      terminalFailurePosture: 'terminal-failure',
      'reported.retryScheduledCount': 1,
    });
    const execution = list.find((surface: { id: string }) => surface.id === 'agent-tool-execution');
    expect(execution.metadata).toMatchObject({
      retryPolicy: 'bounded-in-process',
      retryMaxAttempts: 2,
      idempotencyPolicy: 'completed-run',
    });
  });
  it('refuses a decision by the principal who requested the run, whatever actorId either body names', async () => {
    const waiting = await run(
      'refund-order',
      { runId: 'self-1', actorId: 'someone-else', arguments: '{"orderId":"o-9","amount":9999}' },
      'approver',
    );
    expect(waiting.body).toMatchObject({ outcome: 'approval-required' });
    for (const decision of ['approve', 'deny']) {
      const refused = await call('/engine/agent-tool-runs/self-1/decision', {
        method: 'POST',
        body: { decision, actorId: 'a-third-person' },
        token: 'approver',
      });
      expect(refused).toMatchObject({ status: 403, body: { code: 'AGENT_TOOL_SELF_DECISION' } });
    }
    expect((await call('/engine/agent-tool-runs/self-1')).body).toMatchObject({
      latestOutcome: 'approval-required',
      approval: { state: 'pending' },
    });
  });
});
