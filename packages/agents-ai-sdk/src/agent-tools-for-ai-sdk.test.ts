import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createWebHost } from '@corekit/web-host';
import { agentToolsForAiSdk } from './agent-tools-for-ai-sdk';
import { ordersEngine, ordersEngineBuilder } from '../../agents/src/test-support/orders-engine';

/** The orders engine inside a web host listening on loopback; `get` reads its routes. */
async function ordersWebHost() {
  const { builder, agents, calls } = ordersEngineBuilder();
  const host = createWebHost(builder, { port: 0, handleSignals: false, environment: {} });
  const base = (await host.listen()).url.replace('localhost', '127.0.0.1');
  const get = async (path: string) => (await fetch(`${base}${path}`)).json() as Promise<any>;
  return { engine: host.engine, agents, calls, get, stop: () => host.close() };
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that calls one tool on its first step, then answers text; it records what it was sent. */
function scriptedModel(toolName: string, input: unknown) {
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      if (model.doGenerateCalls.length === 1) {
        return {
          content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      const last = options.prompt[options.prompt.length - 1];
      return {
        content: [{ type: 'text', text: `seen ${JSON.stringify(last.content)}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
  return model;
}

const toolResults = (result: { steps: Array<{ toolResults: Array<{ output: unknown }> }> }) =>
  result.steps.flatMap((step) => step.toolResults.map((item) => item.output as any));

describe('agentToolsForAiSdk', () => {
  it('hands every tool with its zod schema to the model and records the run with actor and correlation', async () => {
    const { engine, runs, stop } = await ordersEngine();
    const tools = agentToolsForAiSdk(engine, { actorId: 'agent-7', correlationId: 'conv-1' });
    expect(Object.keys(tools).sort()).toEqual(['lookup-order', 'refund-order']);
    const model = scriptedModel('lookup-order', { orderId: 'o-1' });
    const result = await generateText({ model, tools, prompt: 'where is o-1?', stopWhen: stepCountIs(3) });

    const sent = model.doGenerateCalls[0].tools as any[];
    const lookup = sent.find((item) => item.name === 'lookup-order');
    expect(lookup).toMatchObject({ description: 'State of one order' });
    expect(lookup.inputSchema.properties.orderId).toMatchObject({
      type: 'string',
      description: 'the order id',
    });
    const [answer] = toolResults(result);
    expect(answer).toMatchObject({ status: 'succeeded', output: { orderId: 'o-1', state: 'shipped' } });
    expect(result.text).toContain('shipped');
    expect(runs().find(answer.runId)).toMatchObject({
      toolId: 'lookup-order',
      latestOutcome: 'succeeded',
      actorId: 'agent-7',
      correlationId: 'conv-1',
    });
    await stop();
  });

  it('retries a tool that fails once and answers its success to the model', async () => {
    const { agents, calls, runs, stop } = await ordersEngine(['fail', 'ok']);
    const tools = agentToolsForAiSdk(agents, { runId: (call) => `ai-${call.toolCallId}` });
    const result = await generateText({
      model: scriptedModel('lookup-order', { orderId: 'o-2' }),
      tools,
      prompt: 'p',
      stopWhen: stepCountIs(3),
    });
    expect(toolResults(result)[0]).toMatchObject({ status: 'succeeded', runId: 'ai-call-1' });
    expect(calls.lookup).toBe(2);
    expect(runs().find('ai-call-1')).toMatchObject({
      attempt: 2,
      retryScheduledCount: 1,
      outcomeCounts: { retryScheduled: 1, succeeded: 1 },
    });
    await stop();
  });

  it('answers a terminal failure as a failed result the model reads, not an exception', async () => {
    const { engine, runs, stop } = await ordersEngine(['fatal']);
    const result = await generateText({
      model: scriptedModel('lookup-order', { orderId: 'o-3' }),
      tools: agentToolsForAiSdk(engine),
      prompt: 'p',
      stopWhen: stepCountIs(3),
    });
    const [answer] = toolResults(result);
    expect(answer).toMatchObject({ status: 'failed', error: { code: 'ORDER_LOCKED' } });
    expect(runs().find(answer.runId)).toMatchObject({ terminalFailure: true });
    await stop();
  });

  it('answers approval-required to the model and leaves the run waiting for an operator', async () => {
    const { engine, agents, calls, get, stop } = await ordersWebHost();
    const result = await generateText({
      model: scriptedModel('refund-order', { orderId: 'o-4', amount: 500 }),
      tools: agentToolsForAiSdk(engine, { actorId: 'agent-7' }),
      prompt: 'refund o-4',
      stopWhen: stepCountIs(3),
    });
    const [answer] = toolResults(result);
    expect(answer).toMatchObject({ status: 'approval-required', toolId: 'refund-order' });
    expect(result.text).toContain('approval');
    expect(calls.refund).toBe(0);
    const waiting = await get('/engine/agent-tool-runs/approval-required');
    expect(JSON.stringify(waiting)).toContain(`"runId":"${answer.runId}"`);
    expect(await get(`/engine/agent-tool-runs/${answer.runId}`)).toMatchObject({
      actorId: 'agent-7',
      latestOutcome: 'approval-required',
    });
    const decided = await agents.runtime.decide(answer.runId, { decision: 'approve', actorId: 'operator' });
    expect(decided).toMatchObject({ outcome: 'succeeded', output: { refunded: 500 } });
    expect(calls.refund).toBe(1);
    await stop();
  });

  it('asks again after a denial and answers a schema rejection from the run service as a readable result', async () => {
    const { engine, agents, stop } = await ordersEngine();
    const tools = agentToolsForAiSdk(engine, { runId: () => 'r-deny' });
    const first = await tools['refund-order'].execute!(
      { orderId: 'o-5', amount: 900 },
      { toolCallId: 'c', messages: [] },
    );
    expect(first).toMatchObject({ status: 'approval-required', runId: 'r-deny' });
    await agents.runtime.decide('r-deny', { decision: 'deny', actorId: 'operator', reason: 'too much' });
    const again = await tools['refund-order'].execute!(
      { orderId: 'o-5', amount: 900 },
      { toolCallId: 'c', messages: [] },
    );
    expect(again).toMatchObject({ status: 'approval-required', runId: 'r-deny' });
    expect(engine.catalog('agent-tool-runs')!.find('r-deny')).toMatchObject({
      outcomeCounts: { denied: 1, approvalRequired: 2, accepted: 0 },
    });
    const engineOnly = agentToolsForAiSdk(engine, { toolIds: ['lookup-order'] });
    expect(Object.keys(engineOnly)).toEqual(['lookup-order']);
    const rejected = await engineOnly['lookup-order'].execute!(
      { orderId: '' },
      { toolCallId: 'd', messages: [] },
    );
    expect(rejected).toMatchObject({ status: 'rejected', error: { code: 'AGENT_TOOL_ARGUMENTS_INVALID' } });
    await stop();
  });

  it('refuses unknown tool ids and an engine without the agents pack', async () => {
    const { engine, stop } = await ordersEngine();
    expect(() => agentToolsForAiSdk(engine, { toolIds: ['nope'] })).toThrow(
      expect.objectContaining({ code: 'AGENT_TOOL_NOT_EXPOSABLE' }),
    );
    expect(() => agentToolsForAiSdk({ resolve: () => undefined })).toThrow(
      expect.objectContaining({ code: 'AGENTS_NOT_REGISTERED' }),
    );
    await stop();
  });
});
