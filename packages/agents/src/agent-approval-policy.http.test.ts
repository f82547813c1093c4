import type { AuthorizationDecision, AuthorizationResource } from '@corekit/abstractions';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { agentsOn, fixtureBuilder, registerOrderTools, script } from './test-support/agents-fixture';

let host: WebHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** What the approve policy was asked about, in order. */
type Asked = { subject: string; resource: AuthorizationResource | undefined }[];

/**
 * A host policy that refuses self-approval on its own: every bearer token may run tools and decide, but the
 * `agents.approve` policy refuses a caller whose subject is the run's `requestedBy`. The pack's own check is
 * off (`AllowSelfApproval: true`), so only the policy can refuse.
 */
async function startHost(asked: Asked): Promise<string> {
  const fixture = fixtureBuilder();
  registerOrderTools(agentsOn(fixture, { AllowSelfApproval: true }), script(), script());
  const authorize = (
    request: { headers: Record<string, unknown> },
    requirement?: { policy: string | null; resource?: AuthorizationResource },
  ): AuthorizationDecision => {
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!token) return { outcome: 'unauthenticated' };
    if (requirement?.policy === 'agents.approve') {
      asked.push({ subject: token, resource: requirement.resource });
      if (requirement.resource?.requestedBy === token) return { outcome: 'forbidden' };
    }
    return { outcome: 'allowed', principal: { subject: token } };
  };
  host = createWebHost(fixture.builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: authorize as never,
  });
  return (await host.listen()).url.replace('localhost', '127.0.0.1');
}

async function post(base: string, path: string, token: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('an approve policy that refuses self-approval', () => {
  it('sees the run and its requester (requestedBy) and refuses the requester, while another subject approves', async () => {
    const asked: Asked = [];
    const base = await startHost(asked);
    const requested = await post(base, '/engine/agent-tools/refund-order/runs', 'alice', {
      runId: 'refund-7',
      arguments: '{"orderId":"o-7","amount":500}',
    });
    expect(requested.body).toMatchObject({ outcome: 'approval-required' });
    const decide = (token: string) =>
      post(base, '/engine/agent-tool-runs/refund-7/decision', token, { decision: 'approve' });
    expect((await decide('alice')).status).toBe(403);
    const approved = await decide('bob');
    expect([approved.status, approved.body.outcome]).toEqual([200, 'succeeded']);
    expect(asked).toEqual([
      { subject: 'alice', resource: { kind: 'agent-tool-run', id: 'refund-7', requestedBy: 'alice' } },
      { subject: 'bob', resource: { kind: 'agent-tool-run', id: 'refund-7', requestedBy: 'alice' } },
    ]);
  });

  it('names no requester for an unknown run, which then answers 404', async () => {
    const asked: Asked = [];
    const base = await startHost(asked);
    const missing = await post(base, '/engine/agent-tool-runs/nope/decision', 'bob', { decision: 'approve' });
    expect(missing.status).toBe(404);
    expect(asked).toEqual([{ subject: 'bob', resource: { kind: 'agent-tool-run', id: 'nope' } }]);
  });
});
