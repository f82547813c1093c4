import { agentsRegistrationKey } from './add-agents';
import { agentsOn, fixtureBuilder, registerOrderTools, script } from './test-support/agents-fixture';

async function started(options: Record<string, unknown> = {}, lookup = script(), refund = script()) {
  const fixture = fixtureBuilder();
  const agents = agentsOn(fixture, options);
  registerOrderTools(agents, lookup, refund);
  const engine = fixture.builder.build();
  await engine.start();
  const invoke = (toolId: string, body: Record<string, unknown>) =>
    engine.operations.invoke('agents.run-tool', { params: { toolId }, body });
  return { ...fixture, engine, agents, invoke, lookup, refund };
}

describe('agent tool runs in process', () => {
  it('runs a tool and answers AgentToolExecutionResult with generated defaults', async () => {
    const { invoke, engine } = await started();
    const outcome = await invoke('lookup-order', { arguments: '{"orderId":"o-1"}' });
    expect(outcome.status).toBe(200);
    const result = outcome.body as any;
    expect(result).toMatchObject({
      toolId: 'lookup-order',
      outcome: 'succeeded',
      attempt: 1,
      attemptsThisRequest: 1,
      output: { orderId: 'o-1', state: 'shipped', token: 'abc' },
      actorId: 'anonymous',
      isTerminal: true,
      terminalFailure: false,
    });
    expect(result.runId).toMatch(/^run-/);
    expect(result.correlationId).toMatch(/^corr-/);
    expect(result.outputSummary).toContain('"token":"***"');
    const entry = engine.catalog('agent-tool-runs')!.find(result.runId) as any;
    expect(entry).toMatchObject({ latestOutcome: 'succeeded', outcomeCounts: { accepted: 1, succeeded: 1 } });
    expect(JSON.stringify(entry)).not.toContain('o-1"}');
    expect(engine.snapshot().agentToolRuns).toHaveLength(1);
    await engine.stop();
  });

  it('answers 404 for an unknown tool, 400 for bad arguments, and never runs the executor then', async () => {
    const { invoke, engine, lookup } = await started();
    await expect(invoke('nope', {})).rejects.toMatchObject({
      kind: 'not-found',
      code: 'AGENT_TOOL_NOT_FOUND',
    });
    await expect(invoke('lookup-order', { arguments: 'not json' })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'AGENT_TOOL_ARGUMENTS_INVALID',
    });
    await expect(invoke('lookup-order', { arguments: '{"orderId":42}' })).rejects.toMatchObject({
      kind: 'invalid-input',
      details: { issues: [{ path: 'orderId', code: 'invalid_type' }] },
    });
    await expect(invoke('lookup-order', { arguments: '{}', extra: 1 })).rejects.toMatchObject({
      kind: 'invalid-input',
    });
    expect(lookup.calls).toBe(0);
    await engine.stop();
  });

  it('answers not-active when execution is disabled', async () => {
    const { invoke, engine } = await started({ EnableExecution: false });
    await expect(invoke('lookup-order', { arguments: '{"orderId":"a"}' })).rejects.toMatchObject({
      kind: 'not-active',
      code: 'AGENT_TOOL_EXECUTION_NOT_ACTIVE',
    });
    await engine.stop();
  });

  it('retries a failed attempt and succeeds on the second, redacting the error summary', async () => {
    const { invoke, engine, lookup } = await started(
      { ExecutionMaxAttempts: 3, ExecutionRetryDelayMilliseconds: 0 },
      script('fail', 'ok'),
    );
    const result = (await invoke('lookup-order', { runId: 'r-1', arguments: '{"orderId":"a"}' })).body as any;
    expect(result).toMatchObject({
      outcome: 'succeeded',
      attempt: 2,
      attemptsThisRequest: 2,
      retryScheduledCount: 1,
    });
    expect(lookup.calls).toBe(2);
    const entry = engine.catalog('agent-tool-runs')!.find('r-1') as any;
    expect(entry.outcomeCounts).toMatchObject({ accepted: 2, retryScheduled: 1, succeeded: 1, failed: 0 });
    await engine.stop();
  });

  it('fails terminally after the last attempt and keeps a bounded, redacted error summary', async () => {
    const { invoke, engine, lookup } = await started(
      { ExecutionMaxAttempts: 2, ExecutionRetryDelayMilliseconds: 0, SummaryMaxLength: 60 },
      script('fail', 'fail', 'ok'),
    );
    const result = (await invoke('lookup-order', { runId: 'r-2', arguments: '{"orderId":"a"}' })).body as any;
    expect(result).toMatchObject({
      outcome: 'failed',
      terminalFailure: true,
      attempt: 2,
      error: { code: 'AGENT_TOOL_EXECUTOR_FAILED' },
    });
    expect(lookup.calls).toBe(2);
    expect(result.error.message).not.toContain('hunter2');
    expect(result.error.message).not.toContain('s3cret');
    expect(result.error.message.length).toBeLessThanOrEqual(60);
    await engine.stop();
  });

  it('does not retry a non-retryable failure', async () => {
    const { invoke, engine, lookup } = await started(
      { ExecutionMaxAttempts: 3, ExecutionRetryDelayMilliseconds: 0 },
      script('fatal'),
    );
    const result = (await invoke('lookup-order', { arguments: '{"orderId":"a"}' })).body as any;
    expect(result).toMatchObject({ outcome: 'failed', attempt: 1, error: { code: 'ORDER_LOCKED' } });
    expect(lookup.calls).toBe(1);
    await engine.stop();
  });

  it('aborts the executor at the timeout and answers without waiting for it', async () => {
    const { invoke, engine, lookup } = await started({ ExecutionTimeoutMilliseconds: 50 }, script('hang'));
    const result = (await invoke('lookup-order', { arguments: '{"orderId":"a"}' })).body as any;
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'AGENT_TOOL_TIMEOUT' } });
    expect(lookup.signals[0].aborted).toBe(true);
    await engine.stop();
  });

  it('suppresses a duplicate of a completed run inside the window and runs it again after', async () => {
    const { invoke, engine, lookup, clock } = await started({
      EnableExecutionIdempotency: true,
      ExecutionIdempotencyRetentionMinutes: 10,
    });
    const body = { runId: 'same', arguments: '{"orderId":"a"}' };
    const first = (await invoke('lookup-order', body)).body as any;
    clock.advance(9 * 60_000);
    const second = (await invoke('lookup-order', body)).body as any;
    expect(second).toMatchObject({
      outcome: 'skipped',
      duplicateCompleted: true,
      output: first.output,
      attemptsThisRequest: 0,
    });
    expect(lookup.calls).toBe(1);
    expect(engine.catalog('agent-tool-runs')!.find('same')).toMatchObject({ duplicateCompleted: true });
    clock.advance(2 * 60_000);
    const third = (await invoke('lookup-order', body)).body as any;
    expect(third).toMatchObject({ outcome: 'succeeded', duplicateCompleted: false });
    expect(lookup.calls).toBe(2);
    await engine.stop();
  });

  it('runs a repeated run id again when idempotency is off', async () => {
    const { invoke, engine, lookup } = await started();
    await invoke('lookup-order', { runId: 'again', arguments: '{"orderId":"a"}' });
    await invoke('lookup-order', { runId: 'again', arguments: '{"orderId":"a"}' });
    expect(lookup.calls).toBe(2);
    await engine.stop();
  });

  it('waits for approval, then approves and runs; approval and denial are not executor failures', async () => {
    const { invoke, engine, refund } = await started();
    const waiting = (
      await invoke('refund-order', { runId: 'big', arguments: '{"orderId":"a","amount":500}' })
    ).body as any;
    expect(waiting).toMatchObject({
      outcome: 'approval-required',
      requiresApproval: true,
      approval: { state: 'pending' },
    });
    expect(refund.calls).toBe(0);
    const approved = await engine.operations.invoke('agents.decide-run', {
      params: { runId: 'big' },
      body: { decision: 'approve', actorId: 'supervisor-1', reason: 'ok' },
    });
    expect(approved.body).toMatchObject({
      outcome: 'succeeded',
      output: { refunded: 500 },
      approval: { state: 'approved', decidedBy: 'supervisor-1' },
    });
    await invoke('refund-order', { runId: 'big2', arguments: '{"orderId":"a","amount":900}' });
    const denied = await engine.operations.invoke('agents.decide-run', {
      params: { runId: 'big2' },
      body: { decision: 'deny', actorId: 'supervisor-1' },
    });
    expect(denied.body).toMatchObject({ outcome: 'denied', isTerminal: true, terminalFailure: false });
    await expect(
      engine.operations.invoke('agents.decide-run', {
        params: { runId: 'big2' },
        body: { decision: 'approve', actorId: 'x' },
      }),
    ).rejects.toMatchObject({ kind: 'conflict', code: 'AGENT_TOOL_RUN_NOT_AWAITING_APPROVAL' });
    await expect(
      engine.operations.invoke('agents.decide-run', {
        params: { runId: 'nope' },
        body: { decision: 'deny', actorId: 'x' },
      }),
    ).rejects.toMatchObject({ kind: 'not-found' });
    const small = (await invoke('refund-order', { arguments: '{"orderId":"a","amount":5}' })).body as any;
    expect(small.outcome).toBe('succeeded');
    const surface = engine.technologySurfaces().find((item: any) => item.id === 'agent-tool:refund-order')!;
    expect(surface.metadata).toMatchObject({
      approvalCount: 1,
      denialCount: 1,
      terminalFailureCount: 0,
      'reported.failedCount': 0,
    });
    expect(refund.calls).toBe(2);
    await engine.stop();
  });

  it('keeps approval separate from the request: the requesting actor cannot decide unless AllowSelfApproval', async () => {
    const strict = await started();
    await strict.invoke('refund-order', {
      runId: 'mine',
      actorId: 'clerk-1',
      arguments: '{"orderId":"a","amount":500}',
    });
    for (const decision of ['approve', 'deny']) {
      await expect(
        strict.engine.operations.invoke('agents.decide-run', {
          params: { runId: 'mine' },
          body: { decision, actorId: 'clerk-1' },
        }),
      ).rejects.toMatchObject({ kind: 'forbidden', code: 'AGENT_TOOL_SELF_DECISION' });
    }
    expect(strict.refund.calls).toBe(0);
    const other = await strict.engine.operations.invoke('agents.decide-run', {
      params: { runId: 'mine' },
      body: { decision: 'approve', actorId: 'supervisor-1' },
    });
    expect(other.body).toMatchObject({ outcome: 'succeeded' });
    await strict.engine.stop();

    const relaxed = await started({ AllowSelfApproval: true });
    await relaxed.invoke('refund-order', {
      runId: 'mine',
      actorId: 'clerk-1',
      arguments: '{"orderId":"a","amount":500}',
    });
    const own = await relaxed.engine.operations.invoke('agents.decide-run', {
      params: { runId: 'mine' },
      body: { decision: 'approve', actorId: 'clerk-1' },
    });
    expect(own.body).toMatchObject({ outcome: 'succeeded', approval: { decidedBy: 'clerk-1' } });
    await relaxed.engine.stop();
  });

  it('exposes the in-process runtime through the typed key', async () => {
    const { engine } = await started();
    const registration = engine.resolve(agentsRegistrationKey)!;
    const result = await registration.runtime.run('lookup-order', { arguments: '{"orderId":"z"}' });
    expect(result.outcome).toBe('succeeded');
    expect(registration.runtime.tools().map((tool) => tool.id)).toEqual(['lookup-order', 'refund-order']);
    await engine.stop();
  });
});
