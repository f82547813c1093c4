import {
  cdcExecutionBindingsKey,
  cellMaterializationKey,
  type CatalogDefinition,
  type EngineBuilder,
} from '@corekit/abstractions';
import type { CatalogRegistry } from '../catalog-registry';
import type { Clock } from '../clock';
import { cellCatalogs, cellTechnologySurfaces } from './cell-catalogs';
import { CellMaterializationStore } from './cell-materialization';
import {
  authorizationPolicyCatalog,
  cdcCaptureCatalog,
  dataProductCatalog,
  inboxCatalog,
  outboxCatalog,
  projectionCatalog,
} from './data-catalogs';
import { executionGraphCatalog, hostedExecutionCatalog } from './execution-catalogs';
import type { CellTrafficAutomationDescriptor } from '@corekit/abstractions';

/**
 * Registers the catalogs every engine has (spec 4.2-4.4): execution graphs, hosted executions, data products,
 * projections, outboxes, inboxes, CDC captures, authorization policies and the four cell catalogs, plus the
 * cell technology surfaces and the materialization reporter (`cellMaterializationKey`). REST publication is
 * the package @corekit/rest-publication, which the hosts register.
 */
export function builtinCatalogs(builder: EngineBuilder, registry: CatalogRegistry, clock: Clock): void {
  const store = new CellMaterializationStore(
    clock,
    () => registry.publishedEntries('cell-traffic-automations') as CellTrafficAutomationDescriptor[],
  );
  const definitions: CatalogDefinition<any>[] = [
    executionGraphCatalog,
    hostedExecutionCatalog,
    dataProductCatalog,
    projectionCatalog,
    outboxCatalog,
    inboxCatalog,
    cdcCaptureCatalog(() => builder.resolve(cdcExecutionBindingsKey)),
    authorizationPolicyCatalog,
    ...cellCatalogs(store),
  ];
  for (const definition of definitions) builder.addCatalog(definition);
  builder.provide(cellMaterializationKey, store);
  builder.addTechnologySurfaces(() =>
    cellTechnologySurfaces((catalogId) => registry.view(catalogId)?.entries() ?? []),
  );
}
