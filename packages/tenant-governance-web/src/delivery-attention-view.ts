import type { OperatorViewDefinition } from '@corekit/abstractions';
import type { AttentionItem, InvitationDeliveryStatusService } from '@corekit/tenant-governance';
import { governanceResourceKinds } from './tenant-resource';

/** One attention item with a key unique across tenants (an invitation id is unique only in its tenant). */
export interface DeliveryAttentionRow extends AttentionItem {
  readonly key: string;
}

/**
 * The operator view `invitation-delivery-attention` (`builder.addOperatorView`): invitations whose delivery
 * needs someone (bounced, suppressed, complained, stuck deferred...), every tenant, oldest first, each row
 * linked to the observation read route drilled down to that invitation. Declared where that route is mapped;
 * when that route requires authorization, a caller sees only the rows of tenants it may read there.
 */
export function deliveryAttentionView(
  status: InvitationDeliveryStatusService,
  observationRoute: string,
  /** The observation route's policy: a caller sees the rows of the tenants it may read there. Null: no scoping. */
  observationPolicy: string | null,
): OperatorViewDefinition<DeliveryAttentionRow> {
  return {
    id: 'invitation-delivery-attention',
    title: 'Invitation deliveries needing attention',
    description:
      'Invitations whose last delivery status is in an attention category, with the remediation hint. Open a row for its observations.',
    listPath: observationRoute,
    idField: 'key',
    entryPath: `${observationRoute}?tenantId={tenantId}&invitationId={invitationId}`,
    columns: [
      { label: 'Tenant', value: (row) => row.tenantId },
      { label: 'Category', value: (row) => row.category },
      { label: 'Status', value: (row) => row.status },
      { label: 'Since', value: (row) => row.since },
      { label: 'Hint', value: (row) => row.hint },
    ],
    ...(observationPolicy !== null
      ? {
          tenantAuthorization: {
            policy: observationPolicy,
            kind: governanceResourceKinds.observations,
            tenantOf: (row: DeliveryAttentionRow) => row.tenantId,
          },
        }
      : {}),
    rows: async () =>
      (await status.attention()).map((item) => ({ ...item, key: `${item.tenantId}/${item.invitationId}` })),
  };
}
