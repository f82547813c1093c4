import type { OperationAuthorization } from '@corekit/abstractions';

/**
 * Whether an endpoint is served: `mapped` (its call made, enabled and its service registered), `configured`
 * (its call made and enabled, but the governance registration it needs is missing, so nothing is served and
 * a warning says why) or `disabled` (its `Enable…` key is false, or its map call was not made).
 */
export type EndpointState = 'mapped' | 'configured' | 'disabled';

/** One endpoint as the adapter decided it at registration; what the surfaces report. */
export interface EndpointPlan {
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  readonly routePattern: string;
  readonly state: EndpointState;
  readonly requiresAuthorization: boolean;
  /** Null for an anonymous endpoint. */
  readonly authorizationPolicy: string | null;
  /**
   * Further named policies the handler asks for parts of a request, always (also on an unguarded
   * endpoint): the command endpoint's `acceptOnBehalf`, the dispatch endpoint's `suppliedRecipient`.
   * Empty for the other families.
   */
  readonly additionalAuthorizationPolicies: Readonly<Record<string, string>>;
  readonly excludedFromDescription: boolean;
  /** Null for a GET. */
  readonly maxRequestBodyBytes: number | null;
  /** The call that maps this family (`mapTenantDomainHttpProofEndpoint`...). */
  readonly mapCall: string;
  /** False while the family's call has not been made: it is then `disabled`, whatever its `Enable…` key. */
  readonly mapCallMade: boolean;
}

/** The operation's authorization declaration for a plan. */
export function authorizationOf(plan: EndpointPlan): OperationAuthorization {
  return plan.requiresAuthorization && plan.authorizationPolicy !== null
    ? { mode: 'required', policy: plan.authorizationPolicy }
    : { mode: 'anonymous' };
}

/** The surface fields of one plan, under a prefix (`callback` → `callbackRoutePattern`...). */
export function planFields(prefix: string, plan: EndpointPlan): Record<string, unknown> {
  const key = (name: string) => (prefix ? `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name);
  return {
    [key('routePattern')]: plan.routePattern,
    [key('method')]: plan.method,
    [key('endpointState')]: plan.state,
    [key('mapped')]: plan.state === 'mapped',
    [key('requiresAuthorization')]: plan.requiresAuthorization,
    [key('authorizationPolicy')]: plan.authorizationPolicy,
    [key('additionalAuthorizationPolicies')]: plan.additionalAuthorizationPolicies,
    [key('excludedFromDescription')]: plan.excludedFromDescription,
    [key('maxRequestBodyBytes')]: plan.maxRequestBodyBytes,
    [key('mapCall')]: plan.mapCall,
    [key('mapCallMade')]: plan.mapCallMade,
  };
}
