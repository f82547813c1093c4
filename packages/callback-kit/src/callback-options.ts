import { z } from 'zod';

/** Default largest callback body (1 MiB). */
export const defaultMaxRequestBodyBytes = 1_048_576;
/** Default most events one callback may carry. */
export const defaultMaxEventsPerRequest = 1000;

const policyName = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, 'a policy name ([A-Za-z0-9._:-], 1-100)');
const label = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a label ([A-Za-z0-9._-], 1-64)');

/**
 * The keys every provider callback shares (spec 2.7, `<Provider>InvitationDelivery:AspNetCore`), as a zod
 * shape the provider packages extend with their own keys. Defaults follow spec 5: the endpoint is
 * fail-closed (`RequireStatusCallbackAuthorization` true) unless a host deliberately turns it off.
 */
export function sharedCallbackShape(providerKey: string) {
  return {
    EnableStatusCallbackEndpoint: z.boolean().default(true),
    StatusCallbackRoutePattern: z
      .string()
      .regex(/^\/[A-Za-z0-9._~/-]{1,200}$/, 'an absolute path without parameters')
      .default(`/engine/tenant-invitations/delivery-status/${providerKey}`),
    RequireStatusCallbackAuthorization: z.boolean().default(true),
    StatusCallbackAuthorizationPolicy: policyName.optional(),
    ExcludeStatusCallbackEndpointFromDescription: z.boolean().default(false),
    RequireProviderMessageMatch: z.boolean().default(false),
    RecordStatus: z.boolean().default(true),
    Source: label.default(`${providerKey}-callback`),
    Actor: label.optional(),
    MaxRequestBodyBytes: z.number().int().min(256).max(10_485_760).default(defaultMaxRequestBodyBytes),
    MaxEventsPerRequest: z.number().int().min(1).max(10_000).default(defaultMaxEventsPerRequest),
    MapEngagementEventsAsDelivered: z.boolean().default(false),
  };
}

/** The shared keys after binding. */
export interface SharedCallbackOptions {
  readonly EnableStatusCallbackEndpoint: boolean;
  readonly StatusCallbackRoutePattern: string;
  readonly RequireStatusCallbackAuthorization: boolean;
  readonly StatusCallbackAuthorizationPolicy?: string;
  readonly ExcludeStatusCallbackEndpointFromDescription: boolean;
  readonly RequireProviderMessageMatch: boolean;
  readonly RecordStatus: boolean;
  readonly Source: string;
  readonly Actor?: string;
  readonly MaxRequestBodyBytes: number;
  readonly MaxEventsPerRequest: number;
  readonly MapEngagementEventsAsDelivered: boolean;
}

/** Replay-cache bounds shared by the three providers (seconds and entries). */
export const replayRetentionSeconds = z.number().int().min(1).max(604_800).default(600);
export const replayCacheLimit = z.number().int().min(10).max(1_000_000).default(10_000);
export const toleranceSeconds = z.number().int().min(1).max(86_400).default(300);

/** The configuration section of a provider's callback endpoint. */
export function callbackSection(providerSectionName: string): string {
  return `Engine:MultiTenancy:Governance:${providerSectionName}:AspNetCore`;
}

/**
 * The two refinements every signed provider shares: the verification secret is required while signing is
 * required (`<secretKey> is required while <flagKey> is true ...`), and the replay retention covers the
 * whole tolerance window (at least twice the tolerance), so a replay can never outlive its cache record.
 */
export function refineSignedCallback(
  context: { addIssue(issue: { code: 'custom'; path: string[]; message: string }): void },
  keys: {
    readonly flag: string;
    readonly secret: string;
    readonly retention: string;
    readonly tolerance: string;
  },
  values: {
    readonly required: boolean;
    readonly secretSet: boolean;
    readonly retentionSeconds: number;
    readonly toleranceSeconds: number;
  },
): void {
  if (values.required && !values.secretSet) {
    context.addIssue({
      code: 'custom',
      path: [keys.secret],
      message: `is required while ${keys.flag} is true (or turn the signed webhook off deliberately)`,
    });
  }
  if (values.retentionSeconds < 2 * values.toleranceSeconds) {
    context.addIssue({
      code: 'custom',
      path: [keys.retention],
      message: `must cover the whole tolerance window (at least twice ${keys.tolerance})`,
    });
  }
}
