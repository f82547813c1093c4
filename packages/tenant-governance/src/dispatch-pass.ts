import type {
  InvitationDispatchRequest,
  InvitationSender,
  InvitationSenderOutcome,
  InvitationSendResult,
} from './delivery-seams';
import type { TenantInvitation } from './governance-records';
import type { RetryClaimRenewal } from './retry-queue';

/** The `reason` of a retry outcome not recorded because its claim was lost during the send. */
export const claimLostReason = 'retry-claim-lost';

/** The signal a send gets: the request's, and the retry claim's (aborted once the claim is lost). */
export function sendSignal(request: AbortSignal | undefined, claim: AbortSignal | undefined): AbortSignal {
  const signals = [request, claim].filter((signal): signal is AbortSignal => signal !== undefined);
  if (signals.length === 0) return new AbortController().signal;
  return signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
}

/** One dispatch pass: what every sender's attempt and record share. */
export interface DispatchPass {
  readonly request: InvitationDispatchRequest;
  readonly source: string;
  readonly claim: RetryClaimRenewal | undefined;
  readonly channel: string;
  readonly base: {
    readonly dispatchId: string;
    readonly tenantId: string;
    readonly invitationId: string;
    readonly channel: string;
  };
  readonly invitation: TenantInvitation;
  readonly metadata: Record<string, string>;
  readonly recipient: string | null;
  /** The acceptance secret minted for each sender of the channel, by sender id. */
  readonly secrets: Readonly<Record<string, string>>;
}

/** One sender's attempt, before it is recorded. */
export interface SentAttempt {
  /** The retry-queue and run-state key of the tenant + invitation + channel + sender. */
  readonly key: string;
  readonly attempt: number;
  readonly acceptanceSecret: string | null;
  readonly decision: InvitationSenderOutcome['decision'];
  readonly result: InvitationSendResult;
}

/**
 * Values a sender's reported metadata must not carry: the recipient, the invitee id, the acceptance secret and
 * every dispatch metadata value the sender does not declare recordable.
 */
export function forbiddenValues(pass: DispatchPass, sender: InvitationSender, secret: string | null) {
  const recordable = new Set(sender.recordableMetadataKeys ?? []);
  const values = Object.entries(pass.metadata)
    .filter(([key]) => !recordable.has(key))
    .map(([, value]) => value);
  return [pass.recipient, pass.invitation.inviteeId, secret, ...values];
}

/** The outcome of a send whose claim was lost meanwhile: returned as it happened, recorded nowhere. */
export function unrecordedOutcome(
  senderId: string,
  result: InvitationSendResult,
  decision: InvitationSenderOutcome['decision'],
  attempt: number,
): InvitationSenderOutcome {
  return {
    senderId,
    outcome: result.outcome,
    reason: claimLostReason,
    decision,
    attempt,
    providerMessageId: result.providerMessageId ?? null,
    retryQueued: false,
    metadata: {},
  };
}

/** The outcome of every sender of a dispatch that overlaps one in flight: nothing is sent or changed. */
export function overlapOutcome(senderId: string): InvitationSenderOutcome {
  return {
    senderId,
    outcome: 'already-running',
    reason: 'delivery-in-flight',
    decision: 'dispatcher',
    attempt: 0,
    providerMessageId: null,
    retryQueued: false,
    metadata: {},
  };
}
