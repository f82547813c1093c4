import { CoreError, defineExtensionKey, storePostureOf, type EngineBuilder } from '@corekit/abstractions';
import {
  domainVerificationKey,
  governanceHttpEndpointsPostureKey,
  invitationDeliveryDispatcherKey,
  invitationDeliveryStatusKey,
  tenantGovernanceKey,
} from '@corekit/tenant-governance';
import { administrationCommandOperation, deliveryDispatchOperation } from './administration-endpoints';
import { CallbackReplayGuard, callbackReplayStoreName } from './callback-replay-guard';
import { deliveryAttentionView } from './delivery-attention-view';
import { deliveryStatusCallbackOperation, observationReadOperation } from './delivery-status-endpoints';
import {
  governanceWebOptionsSchema,
  governanceWebSectionPath,
  type GovernanceWebOptions,
  type GovernanceWebOptionsInput,
} from './endpoint-options';
import {
  assertFamilyOptions,
  endpointFamilies,
  endpointFamilyNames,
  splitFamilyOptions,
  type EndpointFamily,
  type FamilyOptions,
} from './endpoint-families';
import type { EndpointPlan, EndpointState } from './endpoint-plan';
import { endpointSurfaces } from './endpoint-surfaces';
import { proofFileOperation } from './proof-file-endpoint';
import { governanceWebEventIdNames, governanceWebEventIds } from './web-event-ids';

/** Registration key of `mapTenantGovernanceEndpoints`. */
export const tenantGovernanceWebRegistrationKey = '@corekit/tenant-governance-web';

/** Operation ids of the endpoints. */
export const governanceWebOperationIds = {
  command: 'tenant-governance-web.administration-command',
  dispatch: 'tenant-governance-web.delivery-dispatch',
  callback: 'tenant-governance-web.delivery-status-callback',
  observations: 'tenant-governance-web.delivery-status-observations',
  proofFiles: 'tenant-governance-web.http-proof-file',
} as const;

/** Code-only extensions: a clock for the signature tolerance (tests). */
export interface GovernanceWebExtensions {
  readonly now?: () => Date;
}

/** What `mapTenantGovernanceEndpoints` answers: the bound settings and each endpoint's plan. */
export interface TenantGovernanceEndpoints {
  readonly settings: GovernanceWebOptions;
  readonly endpoints: Readonly<Record<keyof typeof governanceWebOperationIds, EndpointPlan>>;
}

/** The adapter's state on one builder: created by the first map call, completed by each family's call. */
interface AdapterState {
  /** The section bound without code options: what a family whose call is not made reports. */
  readonly base: GovernanceWebOptions;
  /** Each called family's settings (the section bound with that call's code options). */
  readonly settings: Partial<Record<EndpointFamily, GovernanceWebOptions>>;
  /** Every family's plan; a family whose call is not made is `disabled` with `mapCallMade: false`. */
  readonly plans: Record<EndpointFamily, EndpointPlan>;
  replay: CallbackReplayGuard | null;
  readonly now: () => Date;
}

const adapterStateKey = defineExtensionKey<AdapterState>(
  '@corekit/tenant-governance-web/map-calls',
  'The governance endpoint families mapped on this engine and their settings',
);

/** One family's settings merged from its own call (or the section, when its call is not made). */
function mergedSettings(state: AdapterState): GovernanceWebOptions {
  const merged: Record<string, unknown> = { ...state.base };
  for (const family of endpointFamilyNames) {
    const own = state.settings[family];
    if (!own) continue;
    for (const [key, value] of Object.entries(own)) {
      if (key.includes(endpointFamilies[family].keyPart)) merged[key] = value;
    }
  }
  return merged as GovernanceWebOptions;
}

/** What each family needs, from its settings: route, method, guards, limits and the registration it needs. */
function familySpec(family: EndpointFamily, s: GovernanceWebOptions, builder: EngineBuilder) {
  switch (family) {
    case 'command':
      return {
        enabled: s.EnableTenantAdministrationCommandEndpoint,
        available: builder.resolve(tenantGovernanceKey) !== undefined,
        needs: 'addTenantGovernance',
        method: 'POST' as const,
        route: s.TenantAdministrationCommandRoutePattern,
        require: s.RequireTenantAdministrationAuthorization,
        requireKey: 'RequireTenantAdministrationAuthorization',
        policy: s.TenantAdministrationAuthorizationPolicy as string | null,
        additional: { acceptOnBehalf: s.TenantAdministrationAcceptOnBehalfAuthorizationPolicy } as Record<
          string,
          string
        >,
        exclude: s.ExcludeTenantAdministrationEndpointFromDescription,
        maxBytes: s.TenantAdministrationCommandMaxRequestBodyBytes as number | null,
      };
    case 'dispatch':
      return {
        enabled: s.EnableTenantInvitationDeliveryDispatchEndpoint,
        available: builder.resolve(invitationDeliveryDispatcherKey) !== undefined,
        needs: 'addTenantGovernanceDelivery',
        method: 'POST' as const,
        route: s.TenantInvitationDeliveryDispatchRoutePattern,
        require: s.RequireTenantInvitationDeliveryDispatchAuthorization,
        requireKey: 'RequireTenantInvitationDeliveryDispatchAuthorization',
        policy: s.TenantInvitationDeliveryDispatchAuthorizationPolicy,
        additional: { suppliedRecipient: s.TenantInvitationDeliveryDispatchRecipientAuthorizationPolicy },
        exclude: s.ExcludeTenantInvitationDeliveryDispatchEndpointFromDescription,
        maxBytes: s.TenantInvitationDeliveryDispatchMaxRequestBodyBytes,
      };
    case 'callback':
      return {
        enabled: s.EnableTenantInvitationDeliveryStatusCallbackEndpoint,
        available: builder.resolve(invitationDeliveryStatusKey) !== undefined,
        needs: 'addTenantGovernanceDelivery',
        method: 'POST' as const,
        route: s.TenantInvitationDeliveryStatusCallbackRoutePattern,
        require: s.RequireTenantInvitationDeliveryStatusCallbackAuthorization,
        requireKey: 'RequireTenantInvitationDeliveryStatusCallbackAuthorization',
        policy: s.TenantInvitationDeliveryStatusCallbackAuthorizationPolicy,
        exclude: s.ExcludeTenantInvitationDeliveryStatusCallbackEndpointFromDescription,
        maxBytes: s.TenantInvitationDeliveryStatusCallbackMaxRequestBodyBytes,
      };
    case 'observations':
      return {
        enabled: s.EnableTenantInvitationDeliveryStatusObservationEndpoint,
        available: builder.resolve(invitationDeliveryStatusKey) !== undefined,
        needs: 'addTenantGovernanceDelivery',
        method: 'GET' as const,
        route: s.TenantInvitationDeliveryStatusObservationRoutePattern,
        require: s.RequireTenantInvitationDeliveryStatusObservationAuthorization,
        requireKey: 'RequireTenantInvitationDeliveryStatusObservationAuthorization',
        policy: s.TenantInvitationDeliveryStatusObservationAuthorizationPolicy,
        exclude: s.ExcludeTenantInvitationDeliveryStatusObservationEndpointFromDescription,
        maxBytes: null,
      };
    case 'proofFiles': {
      const domains = builder.resolve(domainVerificationKey);
      return {
        enabled: s.EnableTenantDomainHttpProofEndpoint,
        available: domains !== undefined,
        needs: 'addTenantGovernanceDelivery',
        method: 'GET' as const,
        route: `${proofPrefix(builder)}:challengeId`,
        require: false,
        requireKey: '',
        policy: null,
        exclude: s.ExcludeTenantDomainHttpProofEndpointFromDescription,
        maxBytes: null,
      };
    }
  }
}

function proofPrefix(builder: EngineBuilder): string {
  return (
    builder.resolve(domainVerificationKey)?.httpFilePathPrefix ?? '/.well-known/core-domain-verification/'
  );
}

function planOf(
  family: EndpointFamily,
  spec: ReturnType<typeof familySpec>,
  state: EndpointState,
  mapCallMade: boolean,
): EndpointPlan {
  const guarded = spec.policy !== null && spec.require;
  return {
    operationId: governanceWebOperationIds[family],
    method: spec.method,
    routePattern: spec.route,
    state,
    requiresAuthorization: guarded,
    authorizationPolicy: guarded ? spec.policy : null,
    additionalAuthorizationPolicies: ('additional' in spec && spec.additional) || {},
    excludedFromDescription: spec.exclude,
    maxRequestBodyBytes: spec.maxBytes,
    mapCall: endpointFamilies[family].mapCall,
    mapCallMade,
  };
}

/**
 * The adapter's state, created by the first map call on a builder: event ids, the surfaces, the
 * governance-http-endpoints ownership, and the started log of what is mapped.
 */
function adapterState(builder: EngineBuilder, extensions: GovernanceWebExtensions): AdapterState {
  const existing = builder.resolve(adapterStateKey);
  if (existing) return existing;
  builder.markRegistration(tenantGovernanceWebRegistrationKey);
  builder.declarePack({ packageName: '@corekit/tenant-governance-web', specificationVersion: 1 });
  builder.addEventIds({
    component: 'Tenant governance, web endpoints',
    ranges: [[4590, 4594]],
    names: governanceWebEventIdNames,
  });
  const base = builder.configuration.bind(governanceWebSectionPath, governanceWebOptionsSchema);
  const plans = Object.fromEntries(
    endpointFamilyNames.map((family) => {
      const spec = familySpec(family, base, builder);
      return [family, planOf(family, spec, 'disabled', false)];
    }),
  ) as Record<EndpointFamily, EndpointPlan>;
  const state: AdapterState = {
    base,
    settings: {},
    plans,
    replay: null,
    now: extensions.now ?? (() => new Date()),
  };
  builder.provide(adapterStateKey, state);
  const mappedFamilies = () => endpointFamilyNames.filter((family) => state.plans[family].state === 'mapped');
  builder.provide(governanceHttpEndpointsPostureKey, {
    ownerPackage: tenantGovernanceWebRegistrationKey,
    mappedFamilies: () => mappedFamilies().map((family) => endpointFamilies[family].mapCall),
  });
  builder.addLifecycleHooks({
    id: 'tenant-governance-web',
    started: () => {
      const mapped = mappedFamilies().map((family) => state.plans[family]);
      builder.logger.log({
        level: 'info',
        eventId: governanceWebEventIds.endpointsMapped,
        category: 'tenant-governance-web',
        message: `Governance endpoints mapped: ${mapped.map((p) => `${p.method} ${p.routePattern}`).join(', ') || 'none'}`,
      });
    },
  });
  builder.addTechnologySurfaces(() =>
    endpointSurfaces({
      settings: mergedSettings(state),
      ...state.plans,
      replay: state.replay,
      store: storePostureOf(builder.storeTraits()),
    }),
  );
  return state;
}

/**
 * One family's call: refuses a second call of the same family and options of another family, binds the
 * section with this call's options, decides the family's state and warns when it cannot be served.
 */
function mapFamily(
  builder: EngineBuilder,
  family: EndpointFamily,
  options: object | undefined,
  extensions: GovernanceWebExtensions,
): { state: AdapterState; settings: GovernanceWebOptions; plan: EndpointPlan } {
  const { mapCall } = endpointFamilies[family];
  assertFamilyOptions(family, options);
  // mapTenantGovernanceEndpoints makes every family's call too: a family is claimed once, whichever call makes it.
  builder.claimRegistration({
    packageName: tenantGovernanceWebRegistrationKey,
    entry: mapCall,
    key: `${tenantGovernanceWebRegistrationKey}/${family}`,
  });
  const state = adapterState(builder, extensions);
  const settings = builder.configuration.bind(governanceWebSectionPath, governanceWebOptionsSchema, options);
  const spec = familySpec(family, settings, builder);
  const endpointState: EndpointState = !spec.enabled ? 'disabled' : spec.available ? 'mapped' : 'configured';
  if (endpointState === 'configured') {
    builder.addWarning({
      code: 'GOVERNANCE_ENDPOINT_NOT_MAPPED',
      eventId: governanceWebEventIds.endpointNotMapped,
      message: `${spec.method} ${spec.route} is enabled but not mapped: ${spec.needs} is not registered (call it before ${mapCall})`,
    });
  }
  if (endpointState === 'mapped' && spec.policy !== null && !spec.require) {
    builder.addWarning({
      code: 'GOVERNANCE_ENDPOINT_UNGUARDED',
      eventId: governanceWebEventIds.endpointUnguarded,
      keyPath: `${governanceWebSectionPath}:${spec.requireKey}`,
      message: `${spec.method} ${spec.route} is served without authorization (${governanceWebSectionPath}:${spec.requireKey} is false); keep it true for real hosts`,
    });
  }
  const plan = planOf(family, spec, endpointState, true);
  state.settings[family] = settings;
  state.plans[family] = plan;
  return { state, settings, plan };
}

/** Options of `mapTenantAdministrationCommandEndpoint`. */
export type AdministrationCommandEndpointOptions = FamilyOptions<'TenantAdministration'>;
/** Options of `mapTenantInvitationDeliveryDispatchEndpoint`. */
export type DeliveryDispatchEndpointOptions = FamilyOptions<'TenantInvitationDeliveryDispatch'>;
/** Options of `mapTenantInvitationDeliveryStatusCallbackEndpoint`. */
export type DeliveryStatusCallbackEndpointOptions = FamilyOptions<'TenantInvitationDeliveryStatusCallback'>;
/** Options of `mapTenantInvitationDeliveryStatusObservationEndpoint`. */
export type DeliveryStatusObservationEndpointOptions =
  FamilyOptions<'TenantInvitationDeliveryStatusObservation'>;
/** Options of `mapTenantDomainHttpProofEndpoint`. */
export type DomainHttpProofEndpointOptions = FamilyOptions<'TenantDomainHttpProof'>;

/**
 * Maps `POST /engine/tenant-administration/commands` (after `addTenantGovernance`): fail closed, the host's
 * authorizer with `TenantAdministrationAuthorizationPolicy`. Takes only the `…TenantAdministration…` keys.
 */
export function mapTenantAdministrationCommandEndpoint(
  builder: EngineBuilder,
  options?: AdministrationCommandEndpointOptions,
): EndpointPlan {
  const { plan } = mapFamily(builder, 'command', options, {});
  if (plan.state === 'mapped') builder.addOperation(administrationCommandOperation(plan));
  return plan;
}

/**
 * Maps `POST /engine/tenant-invitations/delivery-dispatches` (after `addTenantGovernanceDelivery`): fail
 * closed. Takes only the `…TenantInvitationDeliveryDispatch…` keys.
 */
export function mapTenantInvitationDeliveryDispatchEndpoint(
  builder: EngineBuilder,
  options?: DeliveryDispatchEndpointOptions,
): EndpointPlan {
  const { plan } = mapFamily(builder, 'dispatch', options, {});
  if (plan.state === 'mapped') builder.addOperation(deliveryDispatchOperation(plan));
  return plan;
}

/**
 * Maps the provider-neutral `POST /engine/tenant-invitations/delivery-status` callback (after
 * `addTenantGovernanceDelivery`): fail closed, optionally HMAC-signed with replay protection. Takes only the
 * `…TenantInvitationDeliveryStatusCallback…` keys; `extensions.now` is the signature tolerance's clock.
 */
export function mapTenantInvitationDeliveryStatusCallbackEndpoint(
  builder: EngineBuilder,
  options?: DeliveryStatusCallbackEndpointOptions,
  extensions: GovernanceWebExtensions = {},
): EndpointPlan {
  const { state, settings: s, plan } = mapFamily(builder, 'callback', options, extensions);
  const now = extensions.now ?? state.now;
  const secret = s.TenantInvitationDeliveryStatusCallbackSigningSecret;
  const signature = secret
    ? {
        secret,
        keyId: s.TenantInvitationDeliveryStatusCallbackSigningKeyId,
        signatureHeader: s.TenantInvitationDeliveryStatusCallbackSignatureHeaderName.toLowerCase(),
        timestampHeader: s.TenantInvitationDeliveryStatusCallbackSignatureTimestampHeaderName.toLowerCase(),
        keyIdHeader: s.TenantInvitationDeliveryStatusCallbackSignatureKeyIdHeaderName.toLowerCase(),
        toleranceSeconds: s.TenantInvitationDeliveryStatusCallbackSignatureToleranceSeconds,
      }
    : null;
  if (plan.state !== 'mapped') return plan;
  const replay =
    signature && s.EnableTenantInvitationDeliveryStatusCallbackReplayProtection
      ? new CallbackReplayGuard(
          builder.openStore(callbackReplayStoreName, {
            maxEntries: s.TenantInvitationDeliveryStatusCallbackReplayCacheLimit,
          }),
          s.TenantInvitationDeliveryStatusCallbackReplayRetentionSeconds,
        )
      : null;
  state.replay = replay;
  if (
    signature &&
    (!s.EnableTenantInvitationDeliveryStatusCallbackReplayProtection ||
      !s.RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch)
  ) {
    builder.addWarning({
      code: 'GOVERNANCE_CALLBACK_GUARDS_OFF',
      eventId: governanceWebEventIds.endpointUnguarded,
      message:
        'The signed delivery-status callback runs without replay protection or provider-message match; keep both on when a signing secret is configured',
    });
  }
  builder.addOperation(
    deliveryStatusCallbackOperation({
      plan,
      maxEventsPerRequest: s.TenantInvitationDeliveryStatusCallbackMaxEventsPerRequest,
      requireProviderMessageMatch: s.RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch,
      signature,
      replay,
      now,
    }),
  );
  return plan;
}

/**
 * Maps `GET /engine/tenant-invitations/delivery-status/observations` (after `addTenantGovernanceDelivery`):
 * fail closed. Takes only the `…TenantInvitationDeliveryStatusObservation…` keys.
 */
export function mapTenantInvitationDeliveryStatusObservationEndpoint(
  builder: EngineBuilder,
  options?: DeliveryStatusObservationEndpointOptions,
): EndpointPlan {
  const { settings: s, plan } = mapFamily(builder, 'observations', options, {});
  if (plan.state === 'mapped') {
    builder.addOperation(
      observationReadOperation(
        plan,
        s.TenantInvitationDeliveryStatusObservationDefaultLimit,
        s.TenantInvitationDeliveryStatusObservationMaxLimit,
      ),
    );
    const status = builder.resolve(invitationDeliveryStatusKey);
    if (status) {
      builder.addOperatorView(
        deliveryAttentionView(
          status,
          plan.routePattern,
          plan.requiresAuthorization ? plan.authorizationPolicy : null,
        ),
      );
    }
  }
  return plan;
}

/**
 * Maps `GET <HttpFilePathPrefix>:challengeId`, the published HTTP proof files (after
 * `addTenantGovernanceDelivery`). The one anonymous route of the adapter (the verifier fetches it like any
 * outside client), so it is mapped only by this call: `mapTenantGovernanceEndpoints` never maps it. Takes only
 * the `…TenantDomainHttpProof…` keys.
 */
export function mapTenantDomainHttpProofEndpoint(
  builder: EngineBuilder,
  options?: DomainHttpProofEndpointOptions,
): EndpointPlan {
  const { plan } = mapFamily(builder, 'proofFiles', options, {});
  if (plan.state === 'mapped') builder.addOperation(proofFileOperation(plan, proofPrefix(builder)));
  return plan;
}

/**
 * The four fail-closed families in one call: administration commands, delivery dispatches, the
 * provider-neutral delivery-status callback and observation reads, each through its own map call with its
 * own keys (call them one by one to map only some). The anonymous HTTP proof-file route is not among them:
 * map it with `mapTenantDomainHttpProofEndpoint`; its keys here are refused. Call after `addTenantGovernance`
 * (and `addTenantGovernanceDelivery` for all but the command endpoint): an enabled endpoint whose service is
 * not registered is not mapped (state `configured`, with a warning). Answers the settings and every family's
 * plan (live: a family mapped later shows up).
 */
export function mapTenantGovernanceEndpoints(
  builder: EngineBuilder,
  options?: Omit<GovernanceWebOptionsInput, keyof DomainHttpProofEndpointOptions>,
  extensions: GovernanceWebExtensions = {},
): TenantGovernanceEndpoints {
  const split = splitFamilyOptions(options);
  for (const key of Object.keys(split.proofFiles)) {
    throw new CoreError(
      'CONFIGURATION_INVALID',
      `${governanceWebSectionPath}:${key} configures mapTenantDomainHttpProofEndpoint, which mapTenantGovernanceEndpoints does not make (the proof files are anonymous and mapped only by their own call); pass it to that call`,
      { section: governanceWebSectionPath },
    );
  }
  mapTenantAdministrationCommandEndpoint(builder, split.command);
  mapTenantInvitationDeliveryDispatchEndpoint(builder, split.dispatch);
  mapTenantInvitationDeliveryStatusCallbackEndpoint(builder, split.callback, extensions);
  mapTenantInvitationDeliveryStatusObservationEndpoint(builder, split.observations);
  const state = builder.resolve(adapterStateKey)!;
  return {
    get settings() {
      return mergedSettings(state);
    },
    endpoints: state.plans,
  };
}
