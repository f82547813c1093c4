import { defineExtensionKey } from '@corekit/abstractions';
import { z } from 'zod';

/** Normalized delivery statuses (spec 2.2). */
export const deliveryStatuses = [
  'accepted',
  'delivered',
  'deferred',
  'bounced',
  'suppressed',
  'failed',
] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** Terminal statuses: once reached, a non-terminal observation never replaces them. */
export const terminalDeliveryStatuses: readonly DeliveryStatus[] = [
  'delivered',
  'failed',
  'bounced',
  'suppressed',
];

/**
 * Precedence rank used by reconciliation (higher wins among terminal statuses): a delivered message can
 * still bounce late or draw a complaint, so bounced and suppressed outrank delivered; failed (the provider
 * could not send) outranks delivered only when observed, which providers do not do after a delivery.
 */
export const deliveryStatusRank: Readonly<Record<DeliveryStatus, number>> = {
  accepted: 1,
  deferred: 2,
  delivered: 3,
  failed: 4,
  bounced: 5,
  suppressed: 6,
};

const safeToken = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\s\p{Cc}]+$/u, 'must not contain spaces or control characters');

/** One observation as a provider callback or a receiver submits it (after translation). */
export const deliveryObservationInputSchema = z.strictObject({
  /** The provider's key (`sendgrid`, `mailgun`, `amazon-ses-sns`, `http`...): `[a-z0-9][a-z0-9.-]*`. */
  providerKey: z.string().regex(/^[a-z0-9][a-z0-9.-]{0,63}$/),
  /** The provider's event id; the observation id is `<providerKey>:<providerEventId>`. */
  providerEventId: safeToken,
  tenantId: z.string().min(1).max(100),
  invitationId: z.string().min(1).max(200),
  status: z.enum(deliveryStatuses),
  channel: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/)
    .optional(),
  senderId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/)
    .optional(),
  providerMessageId: safeToken.optional(),
  /** When the provider saw the event (ISO 8601); default the time it was received. */
  observedAtUtc: z.iso.datetime({ offset: true }).optional(),
  /** A short provider reason code (`mailbox-full`...); never a recipient or a message body. */
  reason: z.string().max(200).optional(),
  /** Who submitted it (`sendgrid-callback`, `receiver`...). */
  source: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/)
    .optional(),
});
export type DeliveryObservationInput = z.input<typeof deliveryObservationInputSchema>;

/** A stored, normalized observation. */
export interface DeliveryObservation {
  readonly observationId: string;
  readonly providerKey: string;
  readonly providerEventId: string;
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string | null;
  readonly senderId: string | null;
  readonly status: DeliveryStatus;
  readonly providerMessageId: string | null;
  readonly observedAtUtc: string;
  readonly receivedAtUtc: string;
  readonly reason: string | null;
  readonly source: string | null;
}

/** The reconciled delivery state of one invitation. */
export interface InvitationDeliveryStatusRecord {
  readonly tenantId: string;
  readonly invitationId: string;
  /** Null until an observation arrives. */
  readonly status: DeliveryStatus | null;
  readonly statusObservationId: string | null;
  readonly providerKey: string | null;
  readonly providerMessageId: string | null;
  readonly observedAtUtc: string | null;
  readonly observationCount: number;
  readonly dispatchedAtUtc: string | null;
  readonly dispatchCount: number;
  /** Ids the message may be named by: provider message ids and core message ids the senders reported, latest last (at most 10). */
  readonly dispatchedProviderMessageIds: readonly string[];
  /** Set when a sender failed with no retry left; cleared by a later dispatch. */
  readonly dispatchFailureReason: string | null;
  readonly dispatchFailedAtUtc: string | null;
  readonly updatedAtUtc: string;
}

/** What happened to one submitted observation. */
export type ObservationOutcome =
  | 'reconciled'
  | 'recorded-precedence-kept'
  | 'duplicate'
  | 'unknown-invitation'
  | 'provider-message-mismatch'
  | 'invalid';

export interface ObservationSubmitResult {
  readonly accepted: number;
  readonly duplicateEvents: number;
  readonly rejected: number;
  readonly outcomes: ReadonlyArray<{
    readonly index: number;
    readonly observationId: string | null;
    readonly outcome: ObservationOutcome;
    /** The invitation's reconciled status after this observation (absent when not recorded). */
    readonly reconciledStatus?: DeliveryStatus | null;
    readonly issues?: readonly string[];
  }>;
}

/** Attention categories: invitations whose delivery needs a person (see the README). */
export const attentionCategories = [
  'bounced',
  'suppressed',
  'failed',
  'stuck-deferred',
  'no-status-after-dispatch',
  'dispatch-failed',
] as const;
export type AttentionCategory = (typeof attentionCategories)[number];

/** The hint and remediation actions of each category. */
export const attentionRemediation: Readonly<
  Record<AttentionCategory, { readonly hint: string; readonly actions: readonly string[] }>
> = {
  bounced: {
    hint: 'The receiving server refused the message permanently: confirm the address with the inviter, then revoke and invite the corrected address.',
    actions: ['verify-recipient-address', 'revoke-and-reinvite'],
  },
  suppressed: {
    hint: 'The provider suppressed the address (complaint, unsubscribe, suppression list): do not resend automatically; ask the invitee to allow the mail or use another channel.',
    actions: ['review-provider-suppression', 'use-alternate-channel'],
  },
  failed: {
    hint: 'The provider could not send the message (rendering, account or policy failure): check the sender configuration and the provider account, then resend.',
    actions: ['check-sender-configuration', 'resend-invitation'],
  },
  'stuck-deferred': {
    hint: 'The provider has been deferring the message longer than InvitationDeliveryStuckDeferredSeconds: the receiving server is slow or refusing temporarily; wait for the provider or resend later.',
    actions: ['wait-for-provider-retry', 'resend-invitation'],
  },
  'no-status-after-dispatch': {
    hint: 'A sender handed the invitation off but no status arrived within InvitationDeliveryNoStatusAfterDispatchSeconds: check that the provider status callback is configured and reaches the host.',
    actions: ['verify-status-callback-configuration', 'resend-invitation'],
  },
  'dispatch-failed': {
    hint: 'A sender failed and no retry is left (attempt budget spent, queue full or disabled, or a non-retryable failure): check the sender configuration, then dispatch again.',
    actions: ['check-sender-configuration', 'retry-dispatch'],
  },
};

/** Every remediation action name. */
export const remediationActions: readonly string[] = [
  ...new Set(Object.values(attentionRemediation).flatMap((entry) => entry.actions)),
];

/** Filters of observation reads (also the query of `GET …/delivery-status/observations`). */
export interface DeliveryObservationQuery {
  readonly tenantId?: string;
  readonly invitationId?: string;
  readonly providerKey?: string;
  readonly status?: DeliveryStatus;
  readonly providerMessageId?: string;
  /** Inclusive bounds on observedAtUtc (ISO 8601). */
  readonly fromUtc?: string;
  readonly toUtc?: string;
  /** Only observations of invitations currently in this attention category. */
  readonly attentionCategory?: AttentionCategory;
  /** Only observations of invitations whose category suggests this remediation action. */
  readonly remediationAction?: string;
  /** Most observations returned, newest first (default 50, at most 1000 here; the web adapter clamps lower). */
  readonly limit?: number;
}

export interface AttentionItem {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly category: AttentionCategory;
  readonly status: DeliveryStatus | null;
  readonly since: string | null;
  readonly hint: string;
  readonly actions: readonly string[];
}

export interface DeliveryObservationQueryResult {
  readonly observations: readonly DeliveryObservation[];
  readonly totalMatched: number;
  readonly limit: number;
  readonly truncated: boolean;
  /** Counts over every matching observation (not only the returned page). */
  readonly rollups: {
    readonly byStatus: Readonly<Record<string, number>>;
    readonly byProvider: Readonly<Record<string, number>>;
    readonly byTenant: Readonly<Record<string, number>>;
    readonly byChannel: Readonly<Record<string, number>>;
    readonly bySender: Readonly<Record<string, number>>;
    readonly byAttentionCategory: Readonly<Record<string, number>>;
  };
  /** Invitations needing attention among those the filters select, with hints and actions. */
  readonly attention: readonly AttentionItem[];
}

/**
 * Delivery-status reconciliation and the observation store, under `invitationDeliveryStatusKey`: the
 * generic callback endpoint and the provider callback packages submit normalized observations; the
 * observation endpoint reads them.
 */
export interface InvitationDeliveryStatusService {
  submit(
    observations: readonly unknown[],
    options?: { readonly requireProviderMessageMatch?: boolean },
  ): Promise<ObservationSubmitResult>;
  /** True when an observation with this normalized id is stored (event-id idempotency of callbacks). */
  hasObservation(observationId: string): Promise<boolean>;
  getStatus(tenantId: string, invitationId: string): Promise<InvitationDeliveryStatusRecord | undefined>;
  query(query: DeliveryObservationQuery): Promise<DeliveryObservationQueryResult>;
  /** Invitations in an attention category (all categories when omitted), optionally of one tenant. */
  attention(filter?: {
    readonly tenantId?: string;
    readonly category?: AttentionCategory;
    readonly remediationAction?: string;
  }): Promise<readonly AttentionItem[]>;
  readonly categories: typeof attentionRemediation;
}

export const invitationDeliveryStatusKey = defineExtensionKey<InvitationDeliveryStatusService>(
  '@corekit/tenant-governance/invitation-delivery-status',
  'Delivery-status reconciliation, observation store, attention categories and remediation hints',
);
