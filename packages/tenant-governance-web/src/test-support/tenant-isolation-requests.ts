// The requests of the tenant isolation suite (tenant-isolation.test.ts over REST,
// tenant-isolation-transports.test.ts over GraphQL, JSON-RPC and gRPC): one table, every transport.
import {
  administrationCommands,
  invitationDeliveryStatusKey,
  type AdministrationCommand,
} from '@corekit/tenant-governance';
import type { EndpointFamily } from '../endpoint-families';
import type { startGovernanceWeb } from './governance-web-host';

/** A governance web test host. */
export type Web = Awaited<ReturnType<typeof startGovernanceWeb>>;

/** Records of one tenant that the commands below act on. */
export interface TenantFixture {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly principalId: string;
}

/** One body per administration command, for a tenant's fixture (typed: a new command must be added here). */
export const commandBodies: Record<
  AdministrationCommand,
  (fixture: TenantFixture) => Record<string, unknown>
> = {
  invite: ({ tenantId }) => ({
    command: 'invite',
    tenantId,
    inviteeKind: 'email',
    inviteeId: 'moved@example.test',
    roles: ['member'],
  }),
  resend: ({ tenantId, invitationId }) => ({ command: 'resend', tenantId, invitationId }),
  'mark-sent': ({ tenantId, invitationId }) => ({ command: 'mark-sent', tenantId, invitationId }),
  revoke: ({ tenantId, invitationId }) => ({ command: 'revoke', tenantId, invitationId }),
  accept: ({ tenantId, invitationId }) => ({
    command: 'accept',
    tenantId,
    invitationId,
    principalId: 'intruder-1',
  }),
  'add-member': ({ tenantId }) => ({
    command: 'add-member',
    tenantId,
    principalId: 'intruder-2',
    roles: ['owner'],
  }),
  'change-roles': ({ tenantId, principalId }) => ({
    command: 'change-roles',
    tenantId,
    principalId,
    roles: ['owner'],
  }),
  'remove-member': ({ tenantId, principalId }) => ({ command: 'remove-member', tenantId, principalId }),
  'suspend-member': ({ tenantId, principalId }) => ({ command: 'suspend-member', tenantId, principalId }),
  'reactivate-member': ({ tenantId, principalId }) => ({
    command: 'reactivate-member',
    tenantId,
    principalId,
  }),
};

export interface TenantRequest {
  readonly label: string;
  readonly query?: string;
  readonly body?: unknown;
}

/**
 * Every guarded endpoint family: the requests acting in a tenant, and whether a token scoped to that very
 * tenant may make them (`all-tenants`: only a caller allowed in every tenant may). Keyed by family, so the
 * sweep below fails for a family mapped without an entry here.
 */
export const tenantRequests: Partial<
  Record<
    EndpointFamily,
    {
      readonly scope: 'tenant' | 'all-tenants';
      requests(fixture: TenantFixture): TenantRequest[];
    }
  >
> = {
  command: {
    scope: 'tenant',
    requests: (fixture) =>
      administrationCommands.map((command) => ({ label: command, body: commandBodies[command](fixture) })),
  },
  dispatch: {
    scope: 'tenant',
    requests: ({ tenantId, invitationId }) => [{ label: 'dispatch', body: { tenantId, invitationId } }],
  },
  observations: {
    scope: 'tenant',
    requests: ({ tenantId, invitationId }) => [
      { label: 'tenant read', query: `tenantId=${tenantId}` },
      { label: 'invitation read', query: `tenantId=${tenantId}&invitationId=${invitationId}` },
    ],
  },
  callback: {
    scope: 'all-tenants',
    requests: ({ tenantId, invitationId }) => [
      {
        label: 'callback',
        body: {
          observations: [
            { providerKey: 'demo', providerEventId: 'evt-moved', tenantId, invitationId, status: 'bounced' },
          ],
        },
      },
    ],
  },
};

export async function fixture(web: Web, tenantId: string): Promise<TenantFixture> {
  const invitation = await web.invite(`invitee@${tenantId}.test`, tenantId);
  await web.governance.execute({
    command: 'add-member',
    tenantId,
    principalId: `${tenantId}-member`,
    roles: ['member'],
  });
  return { tenantId, invitationId: invitation.invitationId, principalId: `${tenantId}-member` };
}

/** Everything a request could change in a tenant: invitations, memberships, delivery observations. */
export async function tenantState(web: Web, tenantId: string): Promise<string> {
  const observations = await web.engine.resolve(invitationDeliveryStatusKey)!.query({ tenantId });
  return JSON.stringify({
    invitations: await web.governance.listInvitations(tenantId),
    memberships: await web.governance.listMemberships(tenantId),
    observations: observations.totalMatched,
  });
}

/** The guarded families actually mapped on this host, from its endpoint plans. */
export function guardedFamilies(web: Web): EndpointFamily[] {
  return (Object.keys(web.endpoints.endpoints) as EndpointFamily[]).filter((family) => {
    const plan = web.endpoints.endpoints[family];
    return plan.state === 'mapped' && plan.requiresAuthorization;
  });
}
