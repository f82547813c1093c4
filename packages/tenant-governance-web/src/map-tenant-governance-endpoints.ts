import { CoreError, storePostureOf, type EngineBuilder } from '@corekit/abstractions';
import {
  domainVerificationKey,
  invitationDeliveryDispatcherKey,
  invitationDeliveryStatusKey,
  tenantGovernanceKey,
} from '@corekit/tenant-governance';
import { administrationCommandOperation, deliveryDispatchOperation } from './administration-endpoints';
import { CallbackReplayGuard, callbackReplayStoreName } from './callback-replay-guard';
import { deliveryStatusCallbackOperation, observationReadOperation } from './delivery-status-endpoints';
import {
  governanceWebOptionsSchema,
  governanceWebSectionPath,
  type GovernanceWebOptions,
  type GovernanceWebOptionsInput,
} from './endpoint-options';
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

/**
 * Maps the governance endpoints as operations the host serves: administration commands, delivery
 * dispatches, the provider-neutral delivery-status callback, observation reads and the HTTP proof files.
 * Call it after `addTenantGovernance` (and `addTenantGovernanceDelivery` for all but the command endpoint):
 * an enabled endpoint whose service is not registered is not mapped (state `configured`, with a warning).
 * Every endpoint but the proof files requires the host's authorizer with its named policy (fail closed:
 * 401 without credentials or without an authorize hook, 403 when refused). Binds
 * `Engine:MultiTenancy:Governance:AspNetCore`; a second call is refused.
 */
export function mapTenantGovernanceEndpoints(
  builder: EngineBuilder,
  options?: GovernanceWebOptionsInput,
  extensions: GovernanceWebExtensions = {},
): TenantGovernanceEndpoints {
  if (builder.hasRegistration(tenantGovernanceWebRegistrationKey)) {
    throw new CoreError(
      'REGISTRATION_DUPLICATE',
      'mapTenantGovernanceEndpoints was already called on this builder; call it once with every option',
    );
  }
  builder.markRegistration(tenantGovernanceWebRegistrationKey);
  builder.addEventIds({
    component: 'Tenant governance, web endpoints',
    ranges: [[4590, 4594]],
    names: governanceWebEventIdNames,
  });
  const settings = builder.configuration.bind(governanceWebSectionPath, governanceWebOptionsSchema, options);
  const now = extensions.now ?? (() => new Date());
  const s = settings;
  const governance = builder.resolve(tenantGovernanceKey) !== undefined;
  const dispatcher = builder.resolve(invitationDeliveryDispatcherKey) !== undefined;
  const status = builder.resolve(invitationDeliveryStatusKey) !== undefined;
  const domains = builder.resolve(domainVerificationKey);

  const plan = (
    key: keyof typeof governanceWebOperationIds,
    spec: {
      enabled: boolean;
      available: boolean;
      needs: string;
      method: 'GET' | 'POST';
      route: string;
      require: boolean;
      requireKey: string;
      policy: string | null;
      exclude: boolean;
      maxBytes: number | null;
    },
  ): EndpointPlan => {
    const state: EndpointState = !spec.enabled ? 'disabled' : spec.available ? 'mapped' : 'configured';
    if (state === 'configured') {
      builder.addWarning({
        code: 'GOVERNANCE_ENDPOINT_NOT_MAPPED',
        eventId: governanceWebEventIds.endpointNotMapped,
        message: `${spec.method} ${spec.route} is enabled but not mapped: ${spec.needs} is not registered (call it before mapTenantGovernanceEndpoints)`,
      });
    }
    if (state === 'mapped' && spec.policy !== null && !spec.require) {
      builder.addWarning({
        code: 'GOVERNANCE_ENDPOINT_UNGUARDED',
        eventId: governanceWebEventIds.endpointUnguarded,
        keyPath: `${governanceWebSectionPath}:${spec.requireKey}`,
        message: `${spec.method} ${spec.route} is served without authorization (${governanceWebSectionPath}:${spec.requireKey} is false); keep it true for real hosts`,
      });
    }
    return {
      operationId: governanceWebOperationIds[key],
      method: spec.method,
      routePattern: spec.route,
      state,
      requiresAuthorization: spec.policy !== null && spec.require,
      authorizationPolicy: spec.policy !== null && spec.require ? spec.policy : null,
      excludedFromDescription: spec.exclude,
      maxRequestBodyBytes: spec.maxBytes,
    };
  };

  const command = plan('command', {
    enabled: s.EnableTenantAdministrationCommandEndpoint,
    available: governance,
    needs: 'addTenantGovernance',
    method: 'POST',
    route: s.TenantAdministrationCommandRoutePattern,
    require: s.RequireTenantAdministrationAuthorization,
    requireKey: 'RequireTenantAdministrationAuthorization',
    policy: s.TenantAdministrationAuthorizationPolicy,
    exclude: s.ExcludeTenantAdministrationEndpointFromDescription,
    maxBytes: s.TenantAdministrationCommandMaxRequestBodyBytes,
  });
  const dispatch = plan('dispatch', {
    enabled: s.EnableTenantInvitationDeliveryDispatchEndpoint,
    available: dispatcher,
    needs: 'addTenantGovernanceDelivery',
    method: 'POST',
    route: s.TenantInvitationDeliveryDispatchRoutePattern,
    require: s.RequireTenantInvitationDeliveryDispatchAuthorization,
    requireKey: 'RequireTenantInvitationDeliveryDispatchAuthorization',
    policy: s.TenantInvitationDeliveryDispatchAuthorizationPolicy,
    exclude: s.ExcludeTenantInvitationDeliveryDispatchEndpointFromDescription,
    maxBytes: s.TenantInvitationDeliveryDispatchMaxRequestBodyBytes,
  });
  const callback = plan('callback', {
    enabled: s.EnableTenantInvitationDeliveryStatusCallbackEndpoint,
    available: status,
    needs: 'addTenantGovernanceDelivery',
    method: 'POST',
    route: s.TenantInvitationDeliveryStatusCallbackRoutePattern,
    require: s.RequireTenantInvitationDeliveryStatusCallbackAuthorization,
    requireKey: 'RequireTenantInvitationDeliveryStatusCallbackAuthorization',
    policy: s.TenantInvitationDeliveryStatusCallbackAuthorizationPolicy,
    exclude: s.ExcludeTenantInvitationDeliveryStatusCallbackEndpointFromDescription,
    maxBytes: s.TenantInvitationDeliveryStatusCallbackMaxRequestBodyBytes,
  });
  const observations = plan('observations', {
    enabled: s.EnableTenantInvitationDeliveryStatusObservationEndpoint,
    available: status,
    needs: 'addTenantGovernanceDelivery',
    method: 'GET',
    route: s.TenantInvitationDeliveryStatusObservationRoutePattern,
    require: s.RequireTenantInvitationDeliveryStatusObservationAuthorization,
    requireKey: 'RequireTenantInvitationDeliveryStatusObservationAuthorization',
    policy: s.TenantInvitationDeliveryStatusObservationAuthorizationPolicy,
    exclude: s.ExcludeTenantInvitationDeliveryStatusObservationEndpointFromDescription,
    maxBytes: null,
  });
  const prefix = domains?.httpFilePathPrefix ?? '/.well-known/core-domain-verification/';
  const proofFiles = plan('proofFiles', {
    enabled: s.EnableTenantDomainHttpProofEndpoint,
    available: domains !== undefined,
    needs: 'addTenantGovernanceDelivery',
    method: 'GET',
    route: `${prefix}:challengeId`,
    require: false,
    requireKey: '',
    policy: null,
    exclude: s.ExcludeTenantDomainHttpProofEndpointFromDescription,
    maxBytes: null,
  });

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
  const replay =
    callback.state === 'mapped' && signature && s.EnableTenantInvitationDeliveryStatusCallbackReplayProtection
      ? new CallbackReplayGuard(
          builder.openStore(callbackReplayStoreName, {
            maxEntries: s.TenantInvitationDeliveryStatusCallbackReplayCacheLimit,
          }),
          s.TenantInvitationDeliveryStatusCallbackReplayRetentionSeconds,
        )
      : null;
  if (callback.state === 'mapped' && signature) {
    if (
      !s.EnableTenantInvitationDeliveryStatusCallbackReplayProtection ||
      !s.RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch
    ) {
      builder.addWarning({
        code: 'GOVERNANCE_CALLBACK_GUARDS_OFF',
        eventId: governanceWebEventIds.endpointUnguarded,
        message:
          'The signed delivery-status callback runs without replay protection or provider-message match; keep both on when a signing secret is configured',
      });
    }
  }

  if (command.state === 'mapped') builder.addOperation(administrationCommandOperation(command));
  if (dispatch.state === 'mapped') builder.addOperation(deliveryDispatchOperation(dispatch));
  if (callback.state === 'mapped') {
    builder.addOperation(
      deliveryStatusCallbackOperation({
        plan: callback,
        maxEventsPerRequest: s.TenantInvitationDeliveryStatusCallbackMaxEventsPerRequest,
        requireProviderMessageMatch: s.RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch,
        signature,
        replay,
        now,
      }),
    );
  }
  if (observations.state === 'mapped') {
    builder.addOperation(
      observationReadOperation(
        observations,
        s.TenantInvitationDeliveryStatusObservationDefaultLimit,
        s.TenantInvitationDeliveryStatusObservationMaxLimit,
      ),
    );
  }
  if (proofFiles.state === 'mapped') builder.addOperation(proofFileOperation(proofFiles, prefix));
  const mapped = [command, dispatch, callback, observations, proofFiles].filter((p) => p.state === 'mapped');
  builder.addLifecycleHooks({
    id: 'tenant-governance-web',
    started: () => {
      builder.logger.log({
        level: 'info',
        eventId: governanceWebEventIds.endpointsMapped,
        category: 'tenant-governance-web',
        message: `Governance endpoints mapped: ${mapped.map((p) => `${p.method} ${p.routePattern}`).join(', ') || 'none'}`,
      });
    },
  });
  const state = { settings, command, dispatch, callback, observations, proofFiles, replay };
  builder.addTechnologySurfaces(() =>
    endpointSurfaces({ ...state, store: storePostureOf(builder.storeTraits()) }),
  );
  return { settings, endpoints: { command, dispatch, callback, observations, proofFiles } };
}
