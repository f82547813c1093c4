import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createAgentToolsMcpServer, type AgentToolsMcpServerOptions } from './create-agent-tools-mcp-server';
import { ordersEngine, type Step } from '../../agents/src/test-support/orders-engine';

/** A started engine, the MCP server over it and a connected client on an in-memory linked pair. */
async function connected(lookup: Step[] = [], options: AgentToolsMcpServerOptions = {}) {
  const fixture = await ordersEngine(lookup);
  const server = createAgentToolsMcpServer(fixture.engine, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'scripted-client', version: '1.0.0' });
  await client.connect(clientSide);
  const close = async () => {
    await client.close();
    await server.close();
    await fixture.engine.stop();
  };
  return { ...fixture, server, client, close };
}

const structured = (result: unknown) => (result as { structuredContent: any }).structuredContent;

describe('createAgentToolsMcpServer', () => {
  it('lists every tool with its name, description and the JSON schema of its zod schema', async () => {
    const { client, close } = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['lookup-order', 'refund-order']);
    const refund = tools.find((tool) => tool.name === 'refund-order')!;
    expect(refund).toMatchObject({
      title: 'Refund an order',
      description: 'Refunds an order; above 100 needs approval',
    });
    expect(refund.inputSchema).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'string' }, amount: { type: 'number' } },
      required: ['orderId', 'amount'],
    });
    await close();
  });

  it('runs a called tool through retry and records it in the run catalog with actor and correlation', async () => {
    const { client, calls, runs, close } = await connected(['fail', 'ok'], {
      actorId: 'mcp-agent',
      correlationId: ({ requestId }) => `mcp-${requestId}`,
    });
    const result = await client.callTool({ name: 'lookup-order', arguments: { orderId: 'o-1' } });
    expect(result.isError).toBe(false);
    const answer = structured(result);
    expect(answer).toMatchObject({ status: 'succeeded', output: { orderId: 'o-1', state: 'shipped' } });
    expect(JSON.parse((result.content as any[])[0].text)).toEqual(answer);
    expect(calls.lookup).toBe(2);
    expect(runs().find(answer.runId)).toMatchObject({
      latestOutcome: 'succeeded',
      actorId: 'mcp-agent',
      correlationId: expect.stringMatching(/^mcp-\d+$/),
      outcomeCounts: { retryScheduled: 1, succeeded: 1 },
    });
    await close();
  });

  it('answers invalid arguments with an error result and creates no run', async () => {
    const { client, calls, runs, close } = await connected();
    const result = await client.callTool({ name: 'lookup-order', arguments: { orderId: 42 } });
    expect(result.isError).toBe(true);
    expect((result.content as any[])[0].text).toMatch(/orderId/);
    expect(calls.lookup).toBe(0);
    expect(runs().entries()).toHaveLength(0);
    await close();
  });

  it('answers approval-required without running and leaves the run waiting until an operator approves', async () => {
    const { client, agents, calls, runs, close } = await connected([], {
      runId: ({ requestId }) => `mcp-run-${requestId}`,
    });
    const result = await client.callTool({
      name: 'refund-order',
      arguments: { orderId: 'o-2', amount: 500 },
    });
    expect(result.isError).toBe(false);
    const answer = structured(result);
    expect(answer).toMatchObject({ status: 'approval-required', toolId: 'refund-order' });
    expect(answer.runId).toMatch(/^mcp-run-/);
    expect(calls.refund).toBe(0);
    const waiting = runs()
      .entries()
      .filter((run: any) => run.requiresApproval);
    expect(waiting).toEqual([expect.objectContaining({ runId: answer.runId, actorId: 'anonymous' })]);
    await agents.runtime.decide(answer.runId, { decision: 'approve', actorId: 'operator' });
    expect(calls.refund).toBe(1);
    expect(runs().find(answer.runId)).toMatchObject({
      latestOutcome: 'succeeded',
      approval: { decidedBy: 'operator' },
    });
    await close();
  });

  it('answers a terminal failure as an error result and shows it among the runs', async () => {
    const { client, runs, close } = await connected(['fatal']);
    const result = await client.callTool({ name: 'lookup-order', arguments: { orderId: 'o-3' } });
    expect(result.isError).toBe(true);
    const answer = structured(result);
    expect(answer).toMatchObject({ status: 'failed', error: { code: 'ORDER_LOCKED' } });
    expect(runs().find(answer.runId)).toMatchObject({ terminalFailure: true });
    await close();
  });

  it('serves only the chosen tools and refuses unknown ones', async () => {
    const { engine, client, close } = await connected([], { toolIds: ['lookup-order'] });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup-order']);
    expect(() => createAgentToolsMcpServer(engine, { toolIds: ['nope'] })).toThrow(
      expect.objectContaining({ code: 'AGENT_TOOL_NOT_EXPOSABLE' }),
    );
    await close();
  });
});
