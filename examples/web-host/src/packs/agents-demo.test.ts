import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { pollUntil } from '@corekit/testing/poll-until';
import { addAgentsDemo, agentsDemoAuthorize } from './agents-demo';

describe('the sample host agents demo', () => {
  it('builds on embedded defaults, runs the lookup, holds the refund for approval and approves it', async () => {
    const builder = createEngineBuilder({
      environment: {},
      logger: createMemoryLogger(),
      contentRoot: __dirname,
    });
    addAgentsDemo(builder);
    const engine = builder.build();
    await engine.start();
    const lookup = await engine.operations.invoke('agents.run-tool', {
      params: { toolId: 'lookup-ticket' },
      body: { arguments: '{"ticketId":"T-100"}' },
    });
    expect(lookup.body).toMatchObject({ outcome: 'succeeded', output: { state: 'open' } });
    const refund = await engine.operations.invoke('agents.run-tool', {
      params: { toolId: 'issue-refund' },
      body: { runId: 'refund-1', arguments: '{"ticketId":"T-100","amount":25}' },
    });
    expect(refund.body).toMatchObject({ outcome: 'approval-required' });
    const approved = await engine.operations.invoke('agents.decide-run', {
      params: { runId: 'refund-1' },
      body: { decision: 'approve', actorId: 'demo-approver' },
    });
    expect(approved.body).toMatchObject({ outcome: 'succeeded', output: { refunded: 25 } });
    await engine.stop();
  });

  it('holds a wait-for-callback run executing until send-callback delivers its id', async () => {
    const builder = createEngineBuilder({
      environment: {},
      logger: createMemoryLogger(),
      contentRoot: __dirname,
    });
    addAgentsDemo(builder);
    const engine = builder.build();
    await engine.start();
    const invoke = (toolId: string, body: Record<string, unknown>) =>
      engine.operations.invoke('agents.run-tool', { params: { toolId }, body });
    const waiting = invoke('wait-for-callback', { runId: 'held', arguments: '{"callbackId":"cb-1"}' });
    const executing = await pollUntil(
      async () => engine.catalog('agent-tool-runs')!.find('held') as { latestOutcome: string } | undefined,
      (run) => run?.latestOutcome === 'accepted',
    );
    expect(executing?.latestOutcome).toBe('accepted');
    const sent = await invoke('send-callback', { arguments: '{"callbackId":"cb-1","note":"paid"}' });
    expect(sent.body).toMatchObject({ outcome: 'succeeded', output: { delivered: true } });
    expect((await waiting).body).toMatchObject({
      outcome: 'succeeded',
      output: { callbackId: 'cb-1', note: 'paid' },
    });
    await engine.stop();
  });

  it('separates duties: the agent token runs but never approves, the approver approves but never runs', () => {
    const agent = { authorization: 'Bearer demo-agent' };
    const approver = { authorization: 'Bearer demo-approver' };
    expect(agentsDemoAuthorize(agent, 'agents.run')).toMatchObject({
      outcome: 'allowed',
      principal: { subject: 'demo-agent' },
    });
    expect(agentsDemoAuthorize(agent, 'agents.approve')).toMatchObject({ outcome: 'forbidden' });
    expect(agentsDemoAuthorize(approver, 'agents.run')).toMatchObject({ outcome: 'forbidden' });
    expect(agentsDemoAuthorize(approver, 'agents.approve')).toMatchObject({
      outcome: 'allowed',
      principal: { subject: 'demo-approver' },
    });
    expect(agentsDemoAuthorize({}, 'agents.approve')).toMatchObject({ outcome: 'unauthenticated' });
    expect(agentsDemoAuthorize({}, 'other')).toBeNull();
  });

  it('refuses a decision to the requester of the run (resource.requestedBy)', () => {
    const approver = { authorization: 'Bearer demo-approver' };
    const run = (requestedBy: string) => ({ kind: 'agent-tool-run', id: 'r-1', requestedBy });
    expect(agentsDemoAuthorize(approver, 'agents.approve', run('demo-approver'))).toMatchObject({
      outcome: 'forbidden',
    });
    expect(agentsDemoAuthorize(approver, 'agents.approve', run('demo-agent'))).toMatchObject({
      outcome: 'allowed',
    });
  });
});
