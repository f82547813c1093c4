import {
  defineInvitationDelivery,
  type InvitationDeliveryFunction,
  endpointHost,
  senderEventIds,
} from '@corekit/sender-kit';
import { nodeHttpClient, type HttpSenderClient } from './http-client';
import { httpSenderOptionsSchema, type HttpSenderOptions, type HttpSenderOptionsInput } from './http-options';
import { createHttpSend } from './http-sender';

/** Event ids of the generic HTTP delivery (runtime-operations 6: 4550-4551). */
export const httpSenderEventIds = { registered: 4550, completed: 4551 } as const;

/** Code-only seams: the transport (default `node:http`/`node:https`), extra trusted CA PEM, the clock. */
export interface HttpInvitationDeliveryExtensions {
  readonly client?: HttpSenderClient;
  readonly ca?: string;
  readonly now?: () => number;
}

/**
 * Registers the generic HTTP webhook sender (`Engine:MultiTenancy:Governance:HttpInvitationDelivery`)
 * after `addTenantGovernanceDelivery`. Answers the bound settings. It cannot guarantee the receiver
 * deduplicates: the idempotency header and the deterministic message id let it.
 */
export const addHttpInvitationDelivery: InvitationDeliveryFunction<
  HttpSenderOptions,
  HttpSenderOptionsInput,
  HttpInvitationDeliveryExtensions
> = defineInvitationDelivery({
  packageName: '@corekit/sender-http',
  entry: 'addHttpInvitationDelivery',
  section: 'Engine:MultiTenancy:Governance:HttpInvitationDelivery',
  schema: httpSenderOptionsSchema,
  eventIds: senderEventIds('Tenant governance, generic HTTP delivery', 'http', httpSenderEventIds),
  recordableMetadataKeys: (settings) =>
    settings.EnableIdempotencyHeader ? [settings.IdempotencyMetadataKey] : [],
  describe: (settings) =>
    `endpoint host ${endpointHost(settings.Endpoint)}, ${settings.Method}, max attempts ${settings.MaxAttempts}, signed ${Boolean(settings.SigningSecret)}`,
  create: (settings, extensions) =>
    createHttpSend(
      settings,
      extensions.client ?? nodeHttpClient({ ...(extensions.ca ? { ca: extensions.ca } : {}) }),
      extensions.now,
    ),
});
