import type { DeliveryStatus } from '@corekit/tenant-governance';
import type { CallbackContext } from './delivery-context-contract';
import type { TranslatedEvent } from './callback-pipeline';

const safeToken = /^[^\s\p{Cc}]{1,200}$/u;

/** True for an id the kit will carry: 1-200 characters, no whitespace, no control character. */
export function isSafeToken(value: unknown): value is string {
  return typeof value === 'string' && safeToken.test(value);
}

/** What a provider read from one event besides its id, status and context. */
export interface ObservationFacts {
  readonly providerMessageId?: string | undefined;
  readonly observedAtUtc?: string | undefined;
  /** The event name (with a safe subtype: `failed:permanent`, `Bounce:Transient`). */
  readonly reason: string;
  readonly source: string;
}

/**
 * The observation of one translated event: the context's optional channel and sender, the provider message
 * id and the observation time only when the provider sent usable ones.
 */
export function observationEvent(
  providerKey: string,
  providerEventId: string,
  context: CallbackContext,
  status: DeliveryStatus,
  facts: ObservationFacts,
): TranslatedEvent {
  return {
    kind: 'observation',
    observation: {
      providerKey,
      providerEventId,
      tenantId: context.tenantId,
      invitationId: context.invitationId,
      status,
      ...(context.channel ? { channel: context.channel } : {}),
      ...(context.senderId ? { senderId: context.senderId } : {}),
      ...(facts.providerMessageId ? { providerMessageId: facts.providerMessageId } : {}),
      ...(facts.observedAtUtc ? { observedAtUtc: facts.observedAtUtc } : {}),
      reason: facts.reason,
      source: facts.source,
    },
  };
}
