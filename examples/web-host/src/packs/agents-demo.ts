import type { AuthorizationDecision, EngineBuilder } from '@corekit/abstractions';
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

/**
 * Registers the agents pack with a `support-desk` module and two tools: `lookup-ticket` (runs at once) and
 * `issue-refund` (every run waits for an approval decision). Runs live in the engine's store (`Engine:Stores`):
 * with the File provider a waiting refund survives a restart.
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
  ]);
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

/**
 * A demo authorize hook for the two agent operations: `Bearer demo-agent` may run tools (policy
 * `agents.run`), `Bearer demo-approver` may also decide approvals (`agents.approve`). Answers null for any
 * other requirement so the host's own hook decides.
 */
export function agentsDemoAuthorize(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  policy: string | null,
): AuthorizationDecision | null {
  if (policy !== 'agents.run' && policy !== 'agents.approve') return null;
  const token = bearerToken(headers);
  if (!token) return { outcome: 'unauthenticated', reason: 'pass Authorization: Bearer demo-agent' };
  if (token === agentsDemoTokens.approver)
    return { outcome: 'allowed', principal: { subject: 'demo-approver' } };
  if (token === agentsDemoTokens.agent && policy === 'agents.run') {
    return { outcome: 'allowed', principal: { subject: 'demo-agent' } };
  }
  return { outcome: 'forbidden', reason: `this token may not use ${policy}` };
}
