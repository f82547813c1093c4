import type { AuthorizationDecision, EngineBuilder } from '@corekit/abstractions';
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
  bearerToken: 'demo-governance-admin',
  callbackSigningSecret: 'demo-callback-signing-secret-change-me',
  callbackSigningKeyId: 'demo-key-1',
} as const;

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
        message: `Governance endpoints: pass "Authorization: Bearer ${governanceDemoCredentials.bearerToken}" (demo token)`,
      });
    },
  });
  return endpoints;
}

/**
 * The demo authorize hook for the governance policies (the four endpoint policies and the two further
 * grants: accepting on behalf, supplying a dispatch recipient): `Bearer demo-governance-admin` is allowed
 * (subject `demo-admin`, written as the audit actor), no token is unauthenticated, another token is
 * refused. Answers null for any other policy so the host's own hook decides.
 */
export function governanceDemoAuthorize(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  policy: string | null,
): AuthorizationDecision | null {
  if (policy === null || !ownedPolicies.has(policy)) return null;
  const token = bearerToken(headers);
  if (!token) {
    return {
      outcome: 'unauthenticated',
      reason: `pass Authorization: Bearer ${governanceDemoCredentials.bearerToken}`,
    };
  }
  if (token === governanceDemoCredentials.bearerToken) {
    return { outcome: 'allowed', principal: { subject: 'demo-admin', policy } };
  }
  return { outcome: 'forbidden', reason: `this token may not use ${policy}` };
}
