import {
  authorizationPolicySchema,
  cdcCaptureSchema,
  dataProductSchema,
  inboxSchema,
  outboxSchema,
  projectionSchema,
  type AuthorizationPolicyDescriptor,
  type CatalogDefinition,
  type CdcCaptureDescriptor,
  type CdcExecutionBindings,
} from '@corekit/abstractions';
import { z } from 'zod';
import { descriptorCatalog, idsOf, problemCollector } from './catalog-helpers';

export const dataProductCatalog = descriptorCatalog(
  'data-products',
  'Data products',
  'dataProducts',
  dataProductSchema,
);
export const projectionCatalog = descriptorCatalog(
  'projections',
  'Projections',
  'projections',
  projectionSchema,
);
export const outboxCatalog = descriptorCatalog('outboxes', 'Outboxes', 'outboxes', outboxSchema);
export const inboxCatalog = descriptorCatalog('inboxes', 'Inboxes', 'inboxes', inboxSchema);

const narrowBy = <T>(segment: string, parameter: string, select: (entry: T, value: string) => boolean) => ({
  segment,
  parameter,
  select,
});

/**
 * `/engine/cdc-captures`: declared captures; each may stage into an outbox, which must exist. When a data pack
 * provides the resolved bindings (`cdcExecutionBindingsKey`), each entry is presented with its
 * `executionBinding`. A capture contributed on behalf of another module (`addCatalogEntries('cdc-captures',
 * 'billing-pack', [{ sourceModuleId: 'orders', ... }])`) carries `metadata.contributorModuleId` with the
 * contributing module; `sourceModuleId` stays authoritative.
 */
export const cdcCaptureCatalog = (
  bindings: () => CdcExecutionBindings | undefined,
): CatalogDefinition<CdcCaptureDescriptor> =>
  descriptorCatalog('cdc-captures', 'CDC captures', 'cdcCaptures', cdcCaptureSchema, {
    narrowings: [
      narrowBy('modules', 'moduleId', (entry, value) => entry.sourceModuleId === value),
      narrowBy('providers', 'provider', (entry, value) => entry.provider === value),
      narrowBy('outboxes', 'outboxId', (entry, value) => entry.outboxId === value),
      narrowBy('sources', 'sourceId', (entry, value) => entry.sourceId === value),
      narrowBy('resources', 'resourceId', (entry, value) => entry.resourceIds.includes(value)),
    ],
    resolve(entries, context) {
      const { problems, add } = problemCollector('cdc-captures');
      const outboxes = idsOf(context.entries('outboxes'));
      for (const capture of entries) {
        if (capture.outboxId !== null && !outboxes.has(capture.outboxId)) {
          add(capture.id, 'outboxId', capture.outboxId, `unknown outbox "${capture.outboxId}"`);
        }
      }
      return problems;
    },
    publish(entry, contribution) {
      const contributor = contribution.sourceModuleId;
      if (contributor === null || contributor === entry.sourceModuleId) return entry;
      return { ...entry, metadata: { ...entry.metadata, contributorModuleId: contributor } };
    },
    present(entry) {
      const binding = bindings()?.bindingOf(entry.id);
      return binding ? { ...entry, executionBinding: binding } : entry;
    },
  });

type PolicyInput = z.input<typeof authorizationPolicySchema> & { sourceModuleId?: string };

/**
 * `/engine/authorization-policies`: describes policies (RBAC, ABAC, Policy); the engine stamps
 * metadata.sourceModuleId with the contributing module. It does not replace the host's authentication.
 */
export const authorizationPolicyCatalog: CatalogDefinition<AuthorizationPolicyDescriptor> = descriptorCatalog(
  'authorization-policies',
  'Authorization policies',
  'authorizationPolicies',
  authorizationPolicySchema,
  {
    publish: (entry, contribution) => ({
      ...entry,
      metadata: { ...entry.metadata, sourceModuleId: contribution.sourceModuleId ?? 'host' },
    }),
  },
);
export type { PolicyInput };
