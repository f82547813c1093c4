import type { InvitationSendMetadata } from './delivery-seams';
import type { TenantInvitation } from './governance-records';

/** The default metadata key holding a recipient email address (`RecipientEmailMetadataKey` of a sender). */
export const defaultRecipientMetadataKey = 'recipientEmail';

const emailShape = /^[^\s@\p{Cc}]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/u;

/**
 * The recipient address of an invitation, in the spec's order: the dispatch metadata's `metadataKey`, then
 * the invitation metadata's, then the InviteeId when the invitee kind is email. Answers null when none is a
 * well-formed address (a sender then answers sender-failed `recipient-missing`, not retryable).
 */
export function resolveInvitationRecipient(
  invitation: Pick<TenantInvitation, 'inviteeKind' | 'inviteeId' | 'metadata'>,
  dispatchMetadata: Readonly<Record<string, string>> = {},
  metadataKey: string = defaultRecipientMetadataKey,
): string | null {
  const candidates = [
    dispatchMetadata[metadataKey],
    invitation.metadata?.[metadataKey],
    invitation.inviteeKind === 'email' ? invitation.inviteeId : undefined,
  ];
  for (const candidate of candidates) {
    const trimmed = candidate?.trim();
    if (trimmed && emailShape.test(trimmed)) return trimmed;
  }
  return null;
}

/**
 * True when dispatch metadata names a recipient address of its own: any value shaped like an address,
 * under whatever key (each sender looks up its own `RecipientEmailMetadataKey`, so the key alone cannot
 * tell). Such a dispatch redirects the invitation; the web adapter asks a policy of its own for it and the
 * dispatcher records it on the invitation's audit trail.
 */
export function suppliesRecipient(dispatchMetadata: Readonly<Record<string, string>> = {}): boolean {
  return Object.values(dispatchMetadata).some((value) => emailShape.test(value.trim()));
}

/** Keys whose values are never recorded in run state (bodies, addresses, credentials, raw headers). */
const unsafeKey =
  /(body|html|text|subject|recipient|address|email|^to$|^cc$|^bcc$|authori[sz]ation|cookie|secret|password|passwd|token|api[-_]?key|credential|signature$)/i;
const addressLike = /[^\s@]+@[^\s@]+\.[^\s@]+/;

/**
 * Metadata safe to keep in run state and surfaces: drops keys that name bodies, addresses or credentials,
 * values that look like an email address or contain one of `forbidden` (the resolved recipient, the
 * invitee id), and bounds strings to 200 characters and the map to 40 entries. Senders keep their own
 * richer metadata out of it; what is dropped is counted in `droppedMetadataKeys`.
 */
export function sanitizeSendMetadata(
  metadata: InvitationSendMetadata | undefined,
  forbidden: ReadonlyArray<string | null | undefined> = [],
): InvitationSendMetadata {
  const result: Record<string, string | number | boolean | null> = {};
  let dropped = 0;
  const needles = forbidden.filter((value): value is string => Boolean(value && value.length >= 3));
  for (const [key, value] of Object.entries(metadata ?? {})) {
    const text = typeof value === 'string' ? value : '';
    const unsafe =
      unsafeKey.test(key) ||
      !/^[A-Za-z0-9._:-]{1,64}$/.test(key) ||
      addressLike.test(text) ||
      needles.some((needle) => text.toLowerCase().includes(needle.toLowerCase()));
    if (unsafe || Object.keys(result).length >= 40) {
      dropped++;
      continue;
    }
    result[key] = typeof value === 'string' ? value.slice(0, 200) : value;
  }
  if (dropped > 0) result.droppedMetadataKeys = dropped;
  return result;
}
