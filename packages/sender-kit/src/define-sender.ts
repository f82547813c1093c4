import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import {
  invitationSenderRegistryKey,
  resolveInvitationRecipient,
  type InvitationSender,
  type InvitationSendRequest,
  type InvitationSendResult,
} from '@corekit/tenant-governance';
import { senderOutcome } from './outcomes';
import type { SenderBaseOptions } from './sender-options';

/** What a provider's send function gets: the request plus the recipient resolved with the sender's key. */
export interface SenderCall extends InvitationSendRequest {
  readonly recipientAddress: string;
  /** Where the address came from, in the spec's order (safe to record; the address itself is not). */
  readonly recipientSource: RecipientSource;
  /** The metadata key looked up in dispatch and invitation metadata (`RecipientEmailMetadataKey`...). */
  readonly recipientMetadataKey: string;
}

/**
 * The recipient fields every sender records, under its prefix: `<prefix>RcptSource` (which of the three
 * places gave the address) and `<prefix>RcptMetadataKey` (the key looked up). Never the address: the
 * outcome is answered to the dispatch caller, kept in run state and logged, and the address can be found
 * again from the invitation with these two fields.
 */
export function recipientMetadata(
  prefix: string,
  call: Pick<SenderCall, 'recipientSource' | 'recipientMetadataKey'>,
): Record<string, string> {
  return {
    [`${prefix}RcptSource`]: call.recipientSource,
    [`${prefix}RcptMetadataKey`]: call.recipientMetadataKey,
  };
}

/** The three places a recipient address is looked up, in order. */
export type RecipientSource = 'dispatch-metadata' | 'invitation-metadata' | 'invitee-id';

/** Which of the three places answered `address` (null when none did). */
export function recipientSourceOf(
  request: Pick<InvitationSendRequest, 'invitation' | 'metadata'>,
  metadataKey: string,
): { address: string; source: RecipientSource } | null {
  const none = { inviteeKind: 'user' as const, inviteeId: '', metadata: {} };
  const fromDispatch = resolveInvitationRecipient(none, request.metadata, metadataKey);
  if (fromDispatch) return { address: fromDispatch, source: 'dispatch-metadata' };
  const fromInvitation = resolveInvitationRecipient(
    { ...none, metadata: request.invitation.metadata },
    {},
    metadataKey,
  );
  if (fromInvitation) return { address: fromInvitation, source: 'invitation-metadata' };
  const fromInvitee = resolveInvitationRecipient(request.invitation, {}, metadataKey);
  return fromInvitee ? { address: fromInvitee, source: 'invitee-id' } : null;
}

/**
 * Builds an `InvitationSender` around a provider's send function with the shared rules: an unsupported
 * channel is suppressed as a provider-managed decision without calling the provider; a missing recipient
 * is sender-failed `recipient-missing` (not retryable); an abort is sender-failed `timeout`; any thrown
 * error is sender-failed `transport-error` (retryable), its message never recorded.
 */
export function defineInvitationSender(
  options: Pick<SenderBaseOptions, 'SenderId' | 'SupportedChannels' | 'RecipientEmailMetadataKey'>,
  send: (call: SenderCall) => Promise<InvitationSendResult>,
): InvitationSender {
  return {
    id: options.SenderId,
    supportedChannels: [...options.SupportedChannels],
    async send(request) {
      if (!options.SupportedChannels.includes(request.channel)) {
        return senderOutcome.suppressed('channel-unsupported', 'provider-managed', {
          senderId: options.SenderId,
        });
      }
      const recipient = recipientSourceOf(request, options.RecipientEmailMetadataKey);
      if (!recipient) {
        return senderOutcome.failed('recipient-missing', { senderId: options.SenderId }, false);
      }
      try {
        return await send({
          ...request,
          recipientAddress: recipient.address,
          recipientSource: recipient.source,
          recipientMetadataKey: options.RecipientEmailMetadataKey,
        });
      } catch {
        return senderOutcome.failed(request.signal.aborted ? 'timeout' : 'transport-error', {
          senderId: options.SenderId,
        });
      }
    },
  };
}

/**
 * Adds a sender to the registry of `addTenantGovernanceDelivery` (which must be called first); refuses
 * with GOVERNANCE_DELIVERY_NOT_REGISTERED otherwise, naming the call to make.
 */
export function registerInvitationSender(builder: EngineBuilder, sender: InvitationSender): void {
  const registry = builder.resolve(invitationSenderRegistryKey);
  if (!registry) {
    throw new CoreError(
      'GOVERNANCE_DELIVERY_NOT_REGISTERED',
      `Sender ${sender.id} needs addTenantGovernanceDelivery (after addTenantGovernance) on the same builder first`,
    );
  }
  registry.add(sender);
}
