import { secretString } from '@corekit/abstractions';
import { z } from 'zod';

/** The section the web adapter binds (the spec's key, kept as written). */
export const governanceWebSectionPath = 'Engine:MultiTenancy:Governance:AspNetCore';

const route = z
  .string()
  .regex(/^\/[A-Za-z0-9._~\-/]*[A-Za-z0-9._~-]$/, 'must be an absolute path without parameters or a query');
const policy = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, 'must be a policy name of letters, digits, . _ : -');
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/, 'must be an HTTP header name (letters, digits, -)');
const keyId = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, 'must be 1-100 of letters, digits, . _ : -');
const bodyBytes = z.number().int().min(256).max(10_485_760);

/**
 * `Engine:MultiTenancy:Governance:AspNetCore` (spec 2.3 and 2.5, plus the dispatch, proof-file and body-limit
 * keys this adapter adds). Every endpoint requires authorization by default with a named policy; turning a
 * `Require…` key off serves that endpoint to anyone and records a registration warning.
 */
export const governanceWebOptionsSchema = z
  .strictObject({
    EnableTenantAdministrationCommandEndpoint: z.boolean().default(true),
    TenantAdministrationCommandRoutePattern: route.default('/engine/tenant-administration/commands'),
    RequireTenantAdministrationAuthorization: z.boolean().default(true),
    TenantAdministrationAuthorizationPolicy: policy.default('tenant-governance.administration'),
    /**
     * The further policy an `accept` command with `onBehalf: true` needs (an administrator accepting for
     * the invitee, without the acceptance secret); asked of the host's authorizer after the endpoint's own
     * policy, whatever `RequireTenantAdministrationAuthorization` says. Default
     * `tenant-governance.accept-on-behalf`.
     */
    TenantAdministrationAcceptOnBehalfAuthorizationPolicy: policy.default(
      'tenant-governance.accept-on-behalf',
    ),
    ExcludeTenantAdministrationEndpointFromDescription: z.boolean().default(false),
    TenantAdministrationCommandMaxRequestBodyBytes: bodyBytes.default(16_384),

    EnableTenantInvitationDeliveryDispatchEndpoint: z.boolean().default(true),
    TenantInvitationDeliveryDispatchRoutePattern: route.default(
      '/engine/tenant-invitations/delivery-dispatches',
    ),
    RequireTenantInvitationDeliveryDispatchAuthorization: z.boolean().default(true),
    TenantInvitationDeliveryDispatchAuthorizationPolicy: policy.default(
      'tenant-governance.delivery-dispatch',
    ),
    /**
     * The further policy a dispatch needs when its metadata supplies its own recipient address (redirecting
     * the invitation); asked of the host's authorizer after the endpoint's own policy. Default
     * `tenant-governance.delivery-dispatch-recipient`.
     */
    TenantInvitationDeliveryDispatchRecipientAuthorizationPolicy: policy.default(
      'tenant-governance.delivery-dispatch-recipient',
    ),
    ExcludeTenantInvitationDeliveryDispatchEndpointFromDescription: z.boolean().default(false),
    TenantInvitationDeliveryDispatchMaxRequestBodyBytes: bodyBytes.default(32_768),

    EnableTenantInvitationDeliveryStatusCallbackEndpoint: z.boolean().default(true),
    TenantInvitationDeliveryStatusCallbackRoutePattern: route.default(
      '/engine/tenant-invitations/delivery-status',
    ),
    RequireTenantInvitationDeliveryStatusCallbackAuthorization: z.boolean().default(true),
    TenantInvitationDeliveryStatusCallbackAuthorizationPolicy: policy.default(
      'tenant-governance.delivery-status-callback',
    ),
    ExcludeTenantInvitationDeliveryStatusCallbackEndpointFromDescription: z.boolean().default(false),
    RequireTenantInvitationDeliveryStatusCallbackProviderMessageMatch: z.boolean().default(true),
    TenantInvitationDeliveryStatusCallbackSigningSecret: secretString(
      'HMAC-SHA256 key of provider-neutral callbacks; supply it from the environment',
    ).optional(),
    TenantInvitationDeliveryStatusCallbackSigningKeyId: keyId.optional(),
    TenantInvitationDeliveryStatusCallbackSignatureHeaderName:
      headerName.default('X-Core-Callback-Signature'),
    TenantInvitationDeliveryStatusCallbackSignatureTimestampHeaderName: headerName.default(
      'X-Core-Callback-Signature-Timestamp',
    ),
    TenantInvitationDeliveryStatusCallbackSignatureKeyIdHeaderName:
      headerName.default('X-Core-Callback-Key-Id'),
    TenantInvitationDeliveryStatusCallbackSignatureToleranceSeconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .default(300),
    EnableTenantInvitationDeliveryStatusCallbackReplayProtection: z.boolean().default(true),
    TenantInvitationDeliveryStatusCallbackReplayRetentionSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .default(600),
    TenantInvitationDeliveryStatusCallbackReplayCacheLimit: z
      .number()
      .int()
      .min(10)
      .max(1_000_000)
      .default(10_000),
    TenantInvitationDeliveryStatusCallbackMaxRequestBodyBytes: bodyBytes.default(262_144),
    TenantInvitationDeliveryStatusCallbackMaxEventsPerRequest: z.number().int().min(1).max(1000).default(100),

    EnableTenantInvitationDeliveryStatusObservationEndpoint: z.boolean().default(true),
    TenantInvitationDeliveryStatusObservationRoutePattern: route.default(
      '/engine/tenant-invitations/delivery-status/observations',
    ),
    RequireTenantInvitationDeliveryStatusObservationAuthorization: z.boolean().default(true),
    TenantInvitationDeliveryStatusObservationAuthorizationPolicy: policy.default(
      'tenant-governance.delivery-status-observations',
    ),
    ExcludeTenantInvitationDeliveryStatusObservationEndpointFromDescription: z.boolean().default(false),
    TenantInvitationDeliveryStatusObservationDefaultLimit: z.number().int().min(1).max(1000).default(50),
    TenantInvitationDeliveryStatusObservationMaxLimit: z.number().int().min(1).max(1000).default(200),

    EnableTenantDomainHttpProofEndpoint: z.boolean().default(true),
    ExcludeTenantDomainHttpProofEndpointFromDescription: z.boolean().default(true),
  })
  .superRefine((options, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (
      options.TenantInvitationDeliveryStatusObservationDefaultLimit >
      options.TenantInvitationDeliveryStatusObservationMaxLimit
    ) {
      issue(
        'TenantInvitationDeliveryStatusObservationDefaultLimit',
        'must not exceed TenantInvitationDeliveryStatusObservationMaxLimit',
      );
    }
    if (
      options.TenantInvitationDeliveryStatusCallbackReplayRetentionSeconds <
      options.TenantInvitationDeliveryStatusCallbackSignatureToleranceSeconds * 2
    ) {
      issue(
        'TenantInvitationDeliveryStatusCallbackReplayRetentionSeconds',
        'must be at least twice TenantInvitationDeliveryStatusCallbackSignatureToleranceSeconds (a signature stays acceptable for the tolerance on either side of its timestamp)',
      );
    }
    const headers = [
      options.TenantInvitationDeliveryStatusCallbackSignatureHeaderName,
      options.TenantInvitationDeliveryStatusCallbackSignatureTimestampHeaderName,
      options.TenantInvitationDeliveryStatusCallbackSignatureKeyIdHeaderName,
    ].map((name) => name.toLowerCase());
    if (new Set(headers).size !== headers.length) {
      issue(
        'TenantInvitationDeliveryStatusCallbackSignatureHeaderName',
        'the three signature headers must differ',
      );
    }
    const secret = options.TenantInvitationDeliveryStatusCallbackSigningSecret;
    if (secret !== undefined && Buffer.byteLength(secret) < 16) {
      issue('TenantInvitationDeliveryStatusCallbackSigningSecret', 'must be at least 16 bytes');
    }
    if (
      options.TenantInvitationDeliveryStatusCallbackSigningKeyId !== undefined &&
      options.TenantInvitationDeliveryStatusCallbackSigningSecret === undefined
    ) {
      issue(
        'TenantInvitationDeliveryStatusCallbackSigningKeyId',
        'is set without TenantInvitationDeliveryStatusCallbackSigningSecret',
      );
    }
  });

export type GovernanceWebOptions = z.output<typeof governanceWebOptionsSchema>;
export type GovernanceWebOptionsInput = z.input<typeof governanceWebOptionsSchema>;
