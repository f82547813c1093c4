import { setTimeout as delay } from 'node:timers/promises';
import type { AuthorizationDecision, AuthorizationResource, EngineBuilder } from '@corekit/abstractions';
import {
  addAgents,
  defineAgentExecutor,
  type AddAgentsOptions,
  type AgentsRegistration,
} from '@corekit/agents';
import { z } from 'zod';
import { bearerToken } from '../bearer-token';

/** Tokens the demo authorize hook accepts (demo only: a real host checks real credentials). */
export const agentsDemoTokens = { agent: 'demo-agent', approver: 'demo-approver' } as const;

const tickets: Readonly<Record<string, { readonly subject: string; readonly state: string }>> = {
  'T-100': { subject: 'Parcel arrived damaged', state: 'open' },
  'T-101': { subject: 'Wrong size delivered', state: 'waiting-customer' },
};

/** Store of the callbacks `send-callback` delivers and `wait-for-callback` waits for. */
export const demoCallbackStoreName = 'agents-demo-callbacks';
/** How often a waiting `wait-for-callback` run looks for its callback in the store. */
const callbackPollMs = 100;

/**
 * Registers the agents pack with a `support-desk` module and four tools: `lookup-ticket` (runs at once),
 * `issue-refund` (every run waits for an approval decision), and a pair for work that takes a while:
 * `wait-for-callback` executes until `send-callback` delivers its callback id (from any replica: the callbacks
 * live in the engine's store, so on PostgreSQL or Redis every replica sees them), its signal aborts or the
 * timeout ends it. Runs live in the engine's store (`Engine:Stores`): with the File provider a waiting refund
 * survives a restart.
 */
export function addAgentsDemo(builder: EngineBuilder, options: AddAgentsOptions = {}): AgentsRegistration {
  builder.addModule({
    id: 'support-desk',
    version: '1.0.0',
    displayName: 'Support desk (agents demo)',
    capabilities: ['tickets.read', 'payments.refund'],
  });
  const agents = addAgents(builder, options);
  agents.addTools('support-desk', [
    {
      id: 'lookup-ticket',
      displayName: 'Look up a support ticket',
      description: 'Answers the subject and state of one ticket',
      capabilityKeys: ['tickets.read'],
      tags: ['demo'],
    },
    {
      id: 'issue-refund',
      displayName: 'Issue a refund',
      description: 'Refunds an amount on a ticket; every refund needs an approval decision',
      capabilityKeys: ['payments.refund'],
      tags: ['demo'],
      approval: 'required',
    },
    {
      id: 'wait-for-callback',
      displayName: 'Wait for a callback',
      description:
        'Executes until send-callback delivers the callback id (an external system answering late)',
      capabilityKeys: ['tickets.read'],
      tags: ['demo'],
    },
    {
      id: 'send-callback',
      displayName: 'Send a callback',
      description: 'Delivers a callback id, ending the wait-for-callback run waiting for it',
      capabilityKeys: ['tickets.read'],
      tags: ['demo'],
    },
  ]);
  const callbacks = builder.openStore<{ readonly note: string }>(demoCallbackStoreName, { maxEntries: 1000 });
  const callbackId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/);
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'wait-for-callback',
      argumentSchema: z.object({ callbackId }),
      execute: async ({ callbackId: id }, { signal }) => {
        for (;;) {
          const delivered = await callbacks.get(id);
          if (delivered) return { callbackId: id, note: delivered.value.note };
          await delay(callbackPollMs, undefined, { signal });
        }
      },
    }),
  );
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'send-callback',
      argumentSchema: z.object({ callbackId, note: z.string().max(200).default('done') }),
      execute: async ({ callbackId: id, note }) => {
        await callbacks.put(id, { note }, { ttlMs: 3_600_000 });
        return { callbackId: id, delivered: true };
      },
    }),
  );
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'lookup-ticket',
      argumentSchema: z.object({ ticketId: z.string().min(1).max(20) }),
      execute: ({ ticketId }) => {
        const ticket = tickets[ticketId];
        return ticket ? { ticketId, ...ticket } : { ticketId, state: 'unknown' };
      },
    }),
  );
  agents.addExecutor(
    defineAgentExecutor({
      toolId: 'issue-refund',
      argumentSchema: z.object({
        ticketId: z.string().min(1).max(20),
        amount: z.number().positive().max(10_000),
      }),
      execute: ({ ticketId, amount }) => ({ ticketId, refunded: amount, currency: 'EUR' }),
    }),
  );
  return agents;
}

/** Which demo token holds which agents policy: one duty each, so no token both starts and approves a run. */
const demoGrants: Readonly<Record<string, string>> = {
  [agentsDemoTokens.agent]: 'agents.run',
  [agentsDemoTokens.approver]: 'agents.approve',
};

/**
 * A demo authorize hook for the two agent operations, with separated duties: `Bearer demo-agent` may run tools
 * (policy `agents.run`) and nothing else, `Bearer demo-approver` may decide approvals (`agents.approve`) and
 * never start a run. As a policy should, it also refuses a decision to the run's requester
 * (`resource.requestedBy`), whatever the grants. Answers null for any other requirement so the host's own hook
 * decides.
 */
export function agentsDemoAuthorize(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  policy: string | null,
  resource?: AuthorizationResource,
): AuthorizationDecision | null {
  if (policy !== 'agents.run' && policy !== 'agents.approve') return null;
  const token = bearerToken(headers);
  if (!token) {
    const expected = policy === 'agents.run' ? agentsDemoTokens.agent : agentsDemoTokens.approver;
    return { outcome: 'unauthenticated', reason: `pass Authorization: Bearer ${expected}` };
  }
  if (demoGrants[token] !== policy)
    return { outcome: 'forbidden', reason: `this token may not use ${policy}` };
  if (policy === 'agents.approve' && resource?.requestedBy === token) {
    return { outcome: 'forbidden', reason: 'the requester of a run may not decide it' };
  }
  return { outcome: 'allowed', principal: { subject: token } };
}
