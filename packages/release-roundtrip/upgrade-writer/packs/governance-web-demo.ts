import { createHmac } from 'node:crypto';
import {
  allTenants,
  type AuthorizationDecision,
  type AuthorizationResource,
  type EngineBuilder,
} from '@corekit/abstractions';
import {
  mapTenantDomainHttpProofEndpoint,
  mapTenantGovernanceEndpoints,
  type TenantGovernanceEndpoints,
} from '@corekit/tenant-governance-web';
import { bearerToken } from '../bearer-token';

/**
 * Demo credentials of the governance endpoints (demo only: a real host verifies real tokens, see the
 * package README's JWT example). The signing secret is the demo's HMAC key for signed callbacks.
 */
export const governanceDemoCredentials = {
  /** Every governance policy in every tenant (the operator's view). */
  bearerToken: 'demo-governance-admin',
  /** Every governance policy, in tenant `acme` only. */
  acmeBearerToken: 'demo-acme-admin',
  /** Every governance policy, in tenant `globex` only. */
  globexBearerToken: 'demo-globex-admin',
  callbackSigningSecret: 'demo-callback-signing-secret-change-me',
  callbackSigningKeyId: 'demo-key-1',
} as const;

/**
 * The tenants each demo token may act in (`*`, `allTenants`: every tenant). A real host reads the same from
 * its credential (a JWT claim, a session's organization).
 */
export const governanceDemoTokenTenants: Readonly<Record<string, readonly string[]>> = {
  [governanceDemoCredentials.bearerToken]: [allTenants],
  [governanceDemoCredentials.acmeBearerToken]: ['acme'],
  [governanceDemoCredentials.globexBearerToken]: ['globex'],
};

/**
 * Whether a credential scoped to `tenants` may act on `resource`: in every tenant with `*`, otherwise only
 * on a resource naming one of its tenants. A resource spanning every tenant (`tenantId: '*'`, an
 * observation read without a tenant, the neutral callback) or naming none is refused to a scoped credential.
 */
export function tenantsAllow(
  tenants: readonly string[],
  resource: AuthorizationResource | undefined,
): boolean {
  if (tenants.includes(allTenants)) return true;
  const tenantId = resource?.tenantId;
  return tenantId !== undefined && tenantId !== allTenants && tenants.includes(tenantId);
}

const ownedPolicies = new Set([
  'tenant-governance.administration',
  'tenant-governance.accept-on-behalf',
  'tenant-governance.delivery-dispatch',
  'tenant-governance.delivery-dispatch-recipient',
  'tenant-governance.delivery-status-callback',
  'tenant-governance.delivery-status-observations',
]);

/**
 * Maps the governance endpoints on the sample host (after `addTenancyDemo` and `addGovernanceDeliveryDemo`):
 * commands, dispatches, the signed delivery-status callback (demo secret and key id), observation reads, and
 * (by its own call, being anonymous) the HTTP proof files. Logs the demo bearer token once the engine has started.
 */
export function addGovernanceWebDemo(builder: EngineBuilder): TenantGovernanceEndpoints {
  const endpoints = mapTenantGovernanceEndpoints(builder, {
    TenantInvitationDeliveryStatusCallbackSigningSecret: governanceDemoCredentials.callbackSigningSecret,
    TenantInvitationDeliveryStatusCallbackSigningKeyId: governanceDemoCredentials.callbackSigningKeyId,
  });
  mapTenantDomainHttpProofEndpoint(builder);
  builder.addLifecycleHooks({
    id: 'governance-web-demo',
    started: () => {
      builder.logger.log({
        level: 'info',
        eventId: 4590,
        category: 'governance-web-demo',
        message: `Governance endpoints: pass "Authorization: Bearer ${governanceDemoCredentials.bearerToken}" (demo token, every tenant; ${governanceDemoCredentials.acmeBearerToken} and ${governanceDemoCredentials.globexBearerToken} act in one tenant)`,
      });
    },
  });
  return endpoints;
}

/**
 * The demo authorize hook for the governance policies (the four endpoint policies and the two further
 * grants: accepting on behalf, supplying a dispatch recipient): a demo token is allowed when its tenants cover
 * the resource's tenant (`demo-governance-admin` every tenant, subject `demo-admin`; `demo-acme-admin` and
 * `demo-globex-admin` their own tenant, subject `<tenant>-admin`; the subject is written as the audit actor)
 * and refused (403) otherwise; no token is unauthenticated. Answers null for another token (the host's own
 * check decides: the sample's operator token acts in every tenant) and for any other policy.
 */
export function governanceDemoAuthorize(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  policy: string | null,
  resource?: AuthorizationResource,
): AuthorizationDecision | null {
  if (policy === null || !ownedPolicies.has(policy)) return null;
  const token = bearerToken(headers);
  if (!token) {
    return {
      outcome: 'unauthenticated',
      reason: `pass Authorization: Bearer ${governanceDemoCredentials.bearerToken}`,
    };
  }
  const tenants = governanceDemoTokenTenants[token];
  if (!tenants) return null;
  if (!tenantsAllow(tenants, resource)) {
    return { outcome: 'forbidden', reason: `this token acts only in tenants ${tenants.join(', ')}` };
  }
  const subject = tenants.includes(allTenants) ? 'demo-admin' : `${tenants.join('-')}-admin`;
  return { outcome: 'allowed', principal: { subject, policy } };
}

/**
 * The headers that sign a delivery-status callback body with the demo's key (what a relay holding the demo
 * secret would send), timestamped now.
 */
export function demoCallbackSignature(raw: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', governanceDemoCredentials.callbackSigningSecret)
    .update(`${timestamp}.${raw}`)
    .digest('hex');
  return {
    'X-Core-Callback-Signature': `v1=${signature}`,
    'X-Core-Callback-Signature-Timestamp': timestamp,
    'X-Core-Callback-Key-Id': governanceDemoCredentials.callbackSigningKeyId,
  };
}
