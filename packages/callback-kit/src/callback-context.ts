/**
 * Where the sender put the invitation context on the provider message, and the names it comes back under:
 * SEND custom args (top-level event keys), MSG user variables (`event-data["user-variables"]`), CLOUD mail
 * tags (`mail.tags`, one-element arrays). The names use only `[a-z_]` so every provider accepts them.
 */
export const callbackContextKeys = {
  tenantId: 'core_tenant_id',
  invitationId: 'core_invitation_id',
  channel: 'core_channel',
  senderId: 'core_sender_id',
  correlationId: 'core_correlation_id',
} as const;

/** The invitation an event belongs to, as the sender tagged it. */
export interface CallbackContext {
  readonly tenantId: string;
  readonly invitationId: string;
  readonly channel?: string;
  readonly senderId?: string;
  readonly correlationId?: string;
}

const idPattern = /^[^\s\p{Cc}]+$/u;
const labelPattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function text(value: unknown): string | undefined {
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  return typeof single === 'string' ? single : undefined;
}

/**
 * Reads the context through `read(name)` (a string, or a one-element string array as CLOUD tags are).
 * Answers undefined when the tenant id or the invitation id is missing or malformed, so the event is
 * skipped rather than attached to a wrong invitation. A malformed channel, sender or correlation id is
 * dropped (the observation is still about the right invitation).
 */
export function extractCallbackContext(read: (name: string) => unknown): CallbackContext | undefined {
  const tenantId = text(read(callbackContextKeys.tenantId));
  const invitationId = text(read(callbackContextKeys.invitationId));
  if (!tenantId || tenantId.length > 100 || !idPattern.test(tenantId)) return undefined;
  if (!invitationId || invitationId.length > 200 || !idPattern.test(invitationId)) return undefined;
  const channel = text(read(callbackContextKeys.channel));
  const senderId = text(read(callbackContextKeys.senderId));
  const correlationId = text(read(callbackContextKeys.correlationId));
  return {
    tenantId,
    invitationId,
    ...(channel && labelPattern.test(channel) ? { channel } : {}),
    ...(senderId && labelPattern.test(senderId) ? { senderId } : {}),
    ...(correlationId && correlationId.length <= 200 && idPattern.test(correlationId)
      ? { correlationId }
      : {}),
  };
}

/** Reads a property of a plain object without touching its prototype chain. */
export function ownProperty(source: unknown, name: string): unknown {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return undefined;
  return Object.hasOwn(source, name) ? (source as Record<string, unknown>)[name] : undefined;
}
