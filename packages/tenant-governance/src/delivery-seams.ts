import { defineExtensionKey } from '@corekit/abstractions';
import type { TenantInvitation } from './governance-records';

/*
 * Seams for the delivery and domain-ownership issue. Everything in this file is a type or a key: it is
 * implemented by the delivery issue (senders, dispatcher, retry queue, reconciliation, domain verification),
 * not here. Nothing in this package sends anything; without those packages invitations move to `sent`
 * only through the host's `mark-sent` command.
 */

/** Outcomes of one sender for one invitation (spec 2.2). */
export type InvitationSendOutcome = 'dispatched' | 'suppressed' | 'sender-failed';

/** What a sender is handed. Implemented by the delivery issue. */
export interface InvitationSendRequest {
  readonly invitation: TenantInvitation;
  readonly channel: string;
  /** Dispatch metadata (first in the recipient resolution order: dispatch, invitation metadata, InviteeId). */
  readonly metadata: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

/** A sender's answer: an outcome plus safe metadata (never a recipient address, a body or a credential). */
export interface InvitationSendResult {
  readonly outcome: InvitationSendOutcome;
  readonly providerMessageId?: string | null;
  readonly retryable?: boolean;
  readonly metadata?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * The sender extension contract every sender package implements (HTTP webhook, SMTP, email providers).
 * Implemented by the delivery issue and the sender packages.
 */
export interface InvitationSender {
  /** Stable id (`SenderId` of the sender's section). */
  readonly id: string;
  /** Channels it serves (`email`...); another channel answers `suppressed`. */
  readonly supportedChannels: readonly string[];
  send(request: InvitationSendRequest): Promise<InvitationSendResult>;
}

/** One dispatch's answer: an outcome per sender, plus `already-running` when a retry pass overlaps. */
export interface InvitationDispatchResult {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel: string;
  readonly outcomes: ReadonlyArray<{
    readonly senderId: string;
    readonly outcome: InvitationSendOutcome | 'already-running';
  }>;
}

/**
 * Dispatches an invitation through the registered senders, records run state and outcome truth, and marks
 * the invitation sent through `TenantGovernance.markInvitationSent` when a sender dispatched it.
 * Implemented by the delivery issue; provided under `invitationDeliveryDispatcherKey`.
 */
export interface InvitationDeliveryDispatcher {
  dispatch(request: {
    readonly tenantId: string;
    readonly invitationId: string;
    readonly channel: string;
    readonly metadata?: Readonly<Record<string, string>>;
    readonly signal?: AbortSignal;
  }): Promise<InvitationDispatchResult>;
}

export const invitationDeliveryDispatcherKey = defineExtensionKey<InvitationDeliveryDispatcher>(
  '@corekit/tenant-governance/invitation-delivery-dispatcher',
  'Dispatches invitations through the registered senders (implemented by the delivery package)',
);

/** Where sender packages register their senders (the delivery package provides the registry). */
export interface InvitationSenderRegistry {
  add(sender: InvitationSender): void;
  list(): readonly InvitationSender[];
}

export const invitationSenderRegistryKey = defineExtensionKey<InvitationSenderRegistry>(
  '@corekit/tenant-governance/invitation-sender-registry',
  'Registered invitation senders (implemented by the delivery package)',
);

/**
 * Surface fields the delivery package reports into `tenant-invitations` and `tenant-domain-ownership`
 * (retry queue, execution coordination, observations, senders, delivery runs; domain verification and
 * polling). Counts and states only, never an identifier. Without a provider the surfaces report these
 * fields as not registered (`deliveryNotRegisteredFields`, `domainVerificationNotRegisteredFields`).
 */
export interface GovernanceDeliveryPosture {
  invitationFields(): Readonly<Record<string, unknown>>;
  domainFields(): Readonly<Record<string, unknown>>;
}

export const governanceDeliveryPostureKey = defineExtensionKey<GovernanceDeliveryPosture>(
  '@corekit/tenant-governance/delivery-posture',
  'Delivery and domain-verification fields of the governance surfaces (implemented by the delivery package)',
);
