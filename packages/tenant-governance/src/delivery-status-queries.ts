import type { DeliveryOptions } from './delivery-options';
import {
  attentionRemediation,
  type AttentionCategory,
  type AttentionItem,
  type DeliveryObservation,
  type DeliveryObservationQuery,
  type DeliveryObservationQueryResult,
  type InvitationDeliveryStatusRecord,
} from './delivery-status-types';

/** The status-store key of an invitation. */
export const statusKey = (tenantId: string, invitationId: string) =>
  `${encodeURIComponent(tenantId)}/${encodeURIComponent(invitationId)}`;

/**
 * The attention category of one status record at `at`, if any (first match): bounced, suppressed and
 * failed by status; stuck-deferred when deferred for longer than InvitationDeliveryStuckDeferredSeconds;
 * dispatch-failed when a sender failed with no retry left and no status came; no-status-after-dispatch
 * when dispatched longer than InvitationDeliveryNoStatusAfterDispatchSeconds ago with no status.
 */
export function categorize(
  record: InvitationDeliveryStatusRecord,
  settings: DeliveryOptions,
  at: Date,
): AttentionCategory | null {
  const now = at.getTime();
  const age = (at: string | null) => (at ? (now - Date.parse(at)) / 1000 : 0);
  if (record.status === 'bounced' || record.status === 'suppressed' || record.status === 'failed')
    return record.status;
  if (
    record.status === 'deferred' &&
    age(record.observedAtUtc) > settings.InvitationDeliveryStuckDeferredSeconds
  ) {
    return 'stuck-deferred';
  }
  if (record.dispatchFailureReason && record.status === null) return 'dispatch-failed';
  if (
    record.status === null &&
    record.dispatchedAtUtc &&
    age(record.dispatchedAtUtc) > settings.InvitationDeliveryNoStatusAfterDispatchSeconds
  ) {
    return 'no-status-after-dispatch';
  }
  return null;
}

/** Status records in an attention category, oldest first, with their hints and actions. */
export function listAttention(
  records: readonly InvitationDeliveryStatusRecord[],
  filter: { tenantId?: string; category?: AttentionCategory; remediationAction?: string },
  settings: DeliveryOptions,
  at: Date,
): AttentionItem[] {
  const items: AttentionItem[] = [];
  for (const value of records) {
    if (filter.tenantId && value.tenantId !== filter.tenantId) continue;
    const category = categorize(value, settings, at);
    if (!category || (filter.category && category !== filter.category)) continue;
    const remediation = attentionRemediation[category];
    if (filter.remediationAction && !remediation.actions.includes(filter.remediationAction)) continue;
    const since =
      category === 'no-status-after-dispatch'
        ? value.dispatchedAtUtc
        : category === 'dispatch-failed'
          ? value.dispatchFailedAtUtc
          : value.observedAtUtc;
    items.push({
      tenantId: value.tenantId,
      invitationId: value.invitationId,
      category,
      status: value.status,
      since,
      ...remediation,
    });
  }
  return items.sort((a, b) => ((a.since ?? '') < (b.since ?? '') ? -1 : 1));
}

/**
 * Filters observations (newest first), rolls them up per dimension over every match, and keeps the
 * attention items of the selected invitations (all of them when only tenant or attention filters apply).
 */
export function queryObservations(
  observations: readonly DeliveryObservation[],
  attention: readonly AttentionItem[],
  query: DeliveryObservationQuery,
): DeliveryObservationQueryResult {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 1000);
  const attentionOf = new Map(
    attention.map((item) => [statusKey(item.tenantId, item.invitationId), item.category]),
  );
  const filterByAttention = Boolean(query.attentionCategory || query.remediationAction);
  const matched = observations
    .filter(
      (item) =>
        (!query.tenantId || item.tenantId === query.tenantId) &&
        (!query.invitationId || item.invitationId === query.invitationId) &&
        (!query.providerKey || item.providerKey === query.providerKey) &&
        (!query.status || item.status === query.status) &&
        (!query.providerMessageId || item.providerMessageId === query.providerMessageId) &&
        (!query.fromUtc || item.observedAtUtc >= new Date(query.fromUtc).toISOString()) &&
        (!query.toUtc || item.observedAtUtc <= new Date(query.toUtc).toISOString()) &&
        (!filterByAttention || attentionOf.has(statusKey(item.tenantId, item.invitationId))),
    )
    .sort((a, b) => -byReceived(a, b));
  const countBy = (keyOf: (item: DeliveryObservation) => string | null | undefined) => {
    const counts: Record<string, number> = {};
    for (const item of matched) {
      const key = keyOf(item);
      if (key) counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };
  const selected = new Set(matched.map((item) => statusKey(item.tenantId, item.invitationId)));
  const relevant = attention.filter(
    (item) =>
      selected.has(statusKey(item.tenantId, item.invitationId)) ||
      (!query.invitationId &&
        !query.providerKey &&
        !query.status &&
        !query.providerMessageId &&
        !query.fromUtc &&
        !query.toUtc),
  );
  return {
    observations: matched.slice(0, limit),
    totalMatched: matched.length,
    limit,
    truncated: matched.length > limit,
    rollups: {
      byStatus: countBy((item) => item.status),
      byProvider: countBy((item) => item.providerKey),
      byTenant: countBy((item) => item.tenantId),
      byChannel: countBy((item) => item.channel),
      bySender: countBy((item) => item.senderId),
      byAttentionCategory: countBy((item) => attentionOf.get(statusKey(item.tenantId, item.invitationId))),
    },
    attention: relevant,
  };
}

export function byReceived(a: DeliveryObservation, b: DeliveryObservation): number {
  if (a.receivedAtUtc !== b.receivedAtUtc) return a.receivedAtUtc < b.receivedAtUtc ? -1 : 1;
  return a.observationId < b.observationId ? -1 : 1;
}
