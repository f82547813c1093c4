import { defineExtensionKey } from '@corekit/abstractions';
import type { TenantInvitation } from './governance-records';

/*
 * The delivery contract. `addTenantGovernanceDelivery` implements the registry, the dispatcher, the retry
 * runner and the posture; sender packages implement `InvitationSender`. Without the delivery registration
 * invitations move to `sent` only through the host's `mark-sent` command.
 */

/** Outcomes of one sender for one invitation (spec 2.2). */
export type InvitationSendOutcome = 'dispatched' | 'suppressed' | 'sender-failed';

/** What a sender is handed for one attempt. */
export interface InvitationSendRequest {
  readonly invitation: TenantInvitation;
  readonly channel: string;
  /** Dispatch metadata (first in the recipient resolution order: dispatch, invitation metadata, InviteeId). */
  readonly metadata: Readonly<Record<string, string>>;
  /**
   * The recipient address the dispatcher resolved with the default key `recipientEmail` (dispatch metadata,
   * then invitation metadata, then InviteeId for an email invitee); null when none. A sender with its own
   * `RecipientEmailMetadataKey` resolves again with `resolveInvitationRecipient`.
   */
  readonly recipient: string | null;
  /**
   * The single-use acceptance secret minted for this attempt (the invitation stores only its SHA-256
   * hash). It belongs in the message and nowhere else: sender-kit's templates place it with
   * `{acceptanceSecret}` and `{acceptanceUrl}`; never put it in metadata, headers, tags or logs.
   */
  readonly acceptanceSecret: string;
  /** Random id of the dispatch pass (one per `dispatch` call or retry attempt); safe to log. */
  readonly dispatchId: string;
  /** 1 for the first attempt of this tenant + invitation + channel + sender, then 2, 3... through the retry queue. */
  readonly attempt: number;
  readonly signal: AbortSignal;
}

/** Safe metadata values: never a recipient address, a body, a header value that may authenticate, or a credential. */
export type InvitationSendMetadata = Readonly<Record<string, string | number | boolean | null>>;

/** A sender's answer: an outcome plus safe metadata. */
export interface InvitationSendResult {
  readonly outcome: InvitationSendOutcome;
  readonly providerMessageId?: string | null;
  /**
   * The sender's own id of the message (the core message id it put on the message as `X-Core-Message-Id` /
   * `core_message_id`). Recorded with a dispatch beside the provider message id, so a callback can name the
   * message by it when the provider answers no id (Microsoft Graph) and provider-message match is required.
   */
  readonly messageId?: string | null;
  /** For sender-failed: whether a later attempt may succeed (default true). False is never queued. */
  readonly retryable?: boolean;
  /** A short stable code (`channel-unsupported`, `recipient-missing`, `http-status-503`, `timeout`...). */
  readonly reason?: string | null;
  /** Who decided: the sender (`sender`, default) or the provider's own rules (`provider-managed`: unsupported channel...). */
  readonly decision?: 'sender' | 'provider-managed';
  readonly metadata?: InvitationSendMetadata;
}

/**
 * The sender extension contract every sender package implements (HTTP webhook, SMTP, email providers).
 * `send` should not throw: a thrown error is recorded as sender-failed with reason `sender-exception`
 * (retryable) and its message is not recorded (it may carry an address or a credential).
 */
export interface InvitationSender {
  /** Stable id (`SenderId` of the sender's section), `[a-z0-9][a-z0-9._-]*`. */
  readonly id: string;
  /** Channels it serves (`email`...); another channel answers `suppressed` without calling `send`. */
  readonly supportedChannels: readonly string[];
  /**
   * Dispatch-metadata keys whose values this sender deliberately records in its outcome metadata (the HTTP
   * sender's caller-supplied idempotency key). The dispatcher otherwise drops every recorded value that
   * repeats a dispatch-metadata value, so a caller's data never reaches run state by accident; address-like
   * values and the recipient stay dropped even under these keys. Default: none.
   */
  readonly recordableMetadataKeys?: readonly string[];
  send(request: InvitationSendRequest): Promise<InvitationSendResult>;
}

/** One sender's recorded outcome in a dispatch. */
export interface InvitationSenderOutcome {
  readonly senderId: string;
  readonly outcome: InvitationSendOutcome | 'already-running';
  readonly reason: string | null;
  readonly decision: 'sender' | 'provider-managed' | 'dispatcher';
  readonly attempt: number;
  readonly providerMessageId: string | null;
  /** True when a sender-failed outcome was put on (or kept in) the retry queue. */
  readonly retryQueued: boolean;
  /** Sanitized sender metadata (unsafe keys and address-like values dropped). */
  readonly metadata: InvitationSendMetadata;
}

/** One dispatch's answer: an outcome per sender, or `already-running` when the same delivery is in flight. */
export interface InvitationDispatchResult {
  readonly dispatchId: string;
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  /** The invitation status after the dispatch (sent once a sender dispatched it). */
  readonly invitationStatus: string;
  readonly outcomes: readonly InvitationSenderOutcome[];
}

/** A dispatch request (also the body of `POST /engine/tenant-invitations/delivery-dispatches`). */
export interface InvitationDispatchRequest {
  readonly tenantId: string;
  readonly invitationId: string;
  /** Default `email`. */
  readonly channel?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** Only these senders (default every registered sender). */
  readonly senderIds?: readonly string[];
  /**
   * Who asks (the web adapter puts the authorized subject here): recorded on the invitation's audit trail
   * when the dispatch supplies its own recipient address.
   */
  readonly actor?: string | null;
  readonly correlationId?: string | null;
  readonly signal?: AbortSignal;
}

/**
 * Dispatches an invitation through the registered senders, records run state and outcome truth, and marks
 * the invitation sent through `TenantGovernance.markInvitationSent` when a sender dispatched it.
 * Provided under `invitationDeliveryDispatcherKey` by `addTenantGovernanceDelivery`. Refusals: 404
 * INVITATION_NOT_FOUND, 409 INVITATION_NOT_DELIVERABLE (not pending or sent), 409 DELIVERY_NO_SENDERS.
 */
export interface InvitationDeliveryDispatcher {
  dispatch(request: InvitationDispatchRequest): Promise<InvitationDispatchResult>;
}

export const invitationDeliveryDispatcherKey = defineExtensionKey<InvitationDeliveryDispatcher>(
  '@corekit/tenant-governance/invitation-delivery-dispatcher',
  'Dispatches invitations through the registered senders',
);

/** Where sender packages register their senders (`addTenantGovernanceDelivery` provides it; ids are unique). */
export interface InvitationSenderRegistry {
  add(sender: InvitationSender): void;
  list(): readonly InvitationSender[];
}

export const invitationSenderRegistryKey = defineExtensionKey<InvitationSenderRegistry>(
  '@corekit/tenant-governance/invitation-sender-registry',
  'Registered invitation senders',
);

/**
 * Surface fields the delivery package reports into `tenant-invitations` and `tenant-domain-ownership`
 * (retry queue, execution coordination, observations, senders, delivery runs; domain verification and
 * polling). Counts and states only, never an identifier. Without a provider the surfaces report these
 * fields as not registered (`deliveryNotRegisteredFields`, `domainVerificationNotRegisteredFields`).
 * Provided by `addTenantGovernanceDelivery`.
 */
export interface GovernanceDeliveryPosture {
  invitationFields(): Readonly<Record<string, unknown>>;
  domainFields(): Readonly<Record<string, unknown>>;
}

export const governanceDeliveryPostureKey = defineExtensionKey<GovernanceDeliveryPosture>(
  '@corekit/tenant-governance/delivery-posture',
  'Delivery and domain-verification fields of the governance surfaces',
);

/**
 * Who maps the governance HTTP endpoints, read by the `tenant-governance-boundaries` and
 * `tenant-administration` surfaces: while no family is mapped the `governance-http-endpoints` boundary stays a
 * taxonomy-only entry; once one is, it is companion-owned by `ownerPackage` and lists the mapped families.
 * Provided by the web adapter's first map call.
 */
export interface GovernanceHttpEndpointsPosture {
  /** The adapter package (`@corekit/tenant-governance-web`). */
  readonly ownerPackage: string;
  /** The endpoint families in state `mapped`, read on each surface read (empty: none served). */
  mappedFamilies(): readonly string[];
}

export const governanceHttpEndpointsPostureKey = defineExtensionKey<GovernanceHttpEndpointsPosture>(
  '@corekit/tenant-governance/http-endpoints-posture',
  'Ownership of the governance HTTP endpoints once an adapter maps them',
);
