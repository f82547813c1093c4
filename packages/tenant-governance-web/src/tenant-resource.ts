import {
  allTenants,
  isIdentifier,
  OperationError,
  type AuthorizationResource,
  type OperationContext,
  type OperationInput,
} from '@corekit/abstractions';
import type { EndpointFamily } from './endpoint-families';
import type { EndpointPlan } from './endpoint-plan';

/** Stable codes of a request whose tenant cannot be settled before it runs (400). */
export const tenantResourceCodes = {
  /** The route, the query and the body name different tenants. */
  conflict: 'TENANT_SCOPE_CONFLICT',
  /** A `tenantId` that is not one identifier (a number, a repeated query parameter, padding, `*`). */
  invalid: 'TENANT_ID_INVALID',
} as const;

/** The `kind` of each governance resource the authorizer is asked about. */
export const governanceResourceKinds = {
  invitation: 'tenant-invitation',
  membership: 'tenant-membership',
  dispatch: 'tenant-invitation-delivery',
  observations: 'tenant-invitation-delivery-observations',
  callback: 'tenant-invitation-delivery-status-callback',
} as const;

const sources = ['params', 'query', 'body'] as const;
type Source = (typeof sources)[number];
const sourceNames: Record<Source, string> = { params: 'the route', query: 'the query', body: 'the body' };

function capitalized(text: string): string {
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

function field(part: unknown, name: string): unknown {
  if (part === null || typeof part !== 'object' || Buffer.isBuffer(part) || Array.isArray(part)) {
    return undefined;
  }
  return Object.prototype.hasOwnProperty.call(part, name)
    ? (part as Record<string, unknown>)[name]
    : undefined;
}

/**
 * The one tenant a request names, read once from the route parameter, the query and the body (`tenantId` in
 * each), before anything is validated, read or changed. Every place that names it must name the same
 * identifier, exactly: a request cannot be authorized for one tenant and run in another. Answers null when
 * none names a tenant. Throws 400 `TENANT_ID_INVALID` for a value that is not one identifier and 400
 * `TENANT_SCOPE_CONFLICT` when two places disagree.
 */
export function requestTenant(input: OperationInput<unknown, unknown, unknown>): string | null {
  let found: { readonly tenantId: string; readonly source: Source } | null = null;
  for (const source of sources) {
    const value = field(input[source], 'tenantId');
    if (value === undefined) continue;
    if (!isIdentifier(value)) {
      throw new OperationError(
        'invalid-input',
        tenantResourceCodes.invalid,
        `The tenantId in ${sourceNames[source]} must be one identifier (letters, digits, then . _ : -)`,
        { source },
      );
    }
    if (found && found.tenantId !== value) {
      throw new OperationError(
        'invalid-input',
        tenantResourceCodes.conflict,
        `${capitalized(sourceNames[found.source])} and ${sourceNames[source]} name different tenants; a request acts in one tenant, named the same wherever it appears`,
        { sources: [found.source, source] },
      );
    }
    found ??= { tenantId: value, source };
  }
  return found?.tenantId ?? null;
}

/** A string field of the body or query as a record id, when it is one (the resource's optional `id`). */
function recordId(part: unknown, name: string): string | undefined {
  const value = field(part, name);
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined;
}

function resource(tenantId: string | null, kind: string, id: string | undefined): AuthorizationResource {
  return { ...(tenantId !== null ? { tenantId } : {}), kind, ...(id !== undefined ? { id } : {}) };
}

/**
 * An administration command's resource: its tenant, `tenant-invitation` (the invitation id, none for
 * `invite`) or `tenant-membership` (the principal id). No tenant named: no `tenantId` (the body is then
 * refused by its schema, after the authorizer has answered).
 */
export function commandResource(input: OperationInput<unknown, unknown, unknown>): AuthorizationResource {
  const tenantId = requestTenant(input);
  const command = field(input.body, 'command');
  const invitation =
    command === 'invite' ||
    command === 'resend' ||
    command === 'mark-sent' ||
    command === 'revoke' ||
    command === 'accept';
  return invitation
    ? resource(tenantId, governanceResourceKinds.invitation, recordId(input.body, 'invitationId'))
    : resource(tenantId, governanceResourceKinds.membership, recordId(input.body, 'principalId'));
}

/** A dispatch's resource: its tenant and the invitation id. */
export function dispatchResource(input: OperationInput<unknown, unknown, unknown>): AuthorizationResource {
  return resource(
    requestTenant(input),
    governanceResourceKinds.dispatch,
    recordId(input.body, 'invitationId'),
  );
}

/**
 * An observation read's resource: the tenant of its `tenantId` filter; without one the read spans every
 * tenant and is asked as `tenantId: '*'` (`allTenants`), which only a caller allowed in all tenants gets.
 */
export function observationsResource(
  input: OperationInput<unknown, unknown, unknown>,
): AuthorizationResource {
  return resource(
    requestTenant(input) ?? allTenants,
    governanceResourceKinds.observations,
    recordId(input.query, 'invitationId'),
  );
}

/**
 * The provider-neutral callback's resource: one batch may carry observations of any tenant, so it is always
 * asked as every tenant (`allTenants`), for the signed relay a host trusts, never for a tenant's own user.
 * The body is not read for it: with a signing secret the signature is checked before anything is parsed.
 */
export function callbackResource(): AuthorizationResource {
  return resource(allTenants, governanceResourceKinds.callback, undefined);
}

/**
 * The tenant an operation acts in: the one its resource was resolved and authorized for (`context.resource`),
 * or null when the resource spans every tenant or names none.
 */
export function authorizedTenant(context: OperationContext): string | null {
  const tenantId = context.resource?.tenantId;
  return tenantId === undefined || tenantId === allTenants ? null : tenantId;
}

/** How a family's resource names the tenant, by family (what the surfaces report). */
const tenantScopes: Record<EndpointFamily, string | null> = {
  command: 'request-tenant',
  dispatch: 'request-tenant',
  observations: 'request-tenant-else-all-tenants',
  callback: 'all-tenants',
  proofFiles: null,
};

/**
 * What the authorizer of a family is asked about tenants, for the surfaces: `request-tenant` (the one tenant
 * the request names), `request-tenant-else-all-tenants` (`*` without a tenant filter), `all-tenants` (always
 * `*`); null when nobody is asked (the endpoint not served, or served without authorization).
 */
export function authorizationTenantScope(family: EndpointFamily, plan: EndpointPlan): string | null {
  return plan.state === 'mapped' && plan.requiresAuthorization ? tenantScopes[family] : null;
}
