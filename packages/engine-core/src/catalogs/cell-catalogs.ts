import {
  cellBoundarySchema,
  cellHealthIsolationSchema,
  cellRouteSchema,
  cellTrafficAutomationSchema,
  type CatalogDefinition,
  type CatalogResolutionContext,
  type CellRouteDescriptor,
  type CellTrafficAutomationDescriptor,
  type TechnologySurface,
} from '@corekit/abstractions';
import { descriptorCatalog, idsOf, problemCollector } from './catalog-helpers';
import type { CellMaterializationStore } from './cell-materialization';

function checkCell(
  catalog: string,
  entries: ReadonlyArray<{ id: string; cellId: string }>,
  context: CatalogResolutionContext,
) {
  const { problems, add } = problemCollector(catalog);
  const cells = idsOf(context.entries('cells'));
  for (const entry of entries)
    if (!cells.has(entry.cellId)) add(entry.id, 'cellId', entry.cellId, `unknown cell "${entry.cellId}"`);
  return { problems, add };
}

/** The four cell catalogs; routes and automations are presented with live materialization state. */
export function cellCatalogs(store: CellMaterializationStore): CatalogDefinition<any>[] {
  const boundaries = descriptorCatalog('cells', 'Cell boundaries', 'cellBoundaries', cellBoundarySchema, {
    resolve(entries, context) {
      const { problems, add } = problemCollector('cells');
      for (const cell of entries) {
        cell.moduleIds.forEach((moduleId, index) => {
          if (!context.moduleIds.has(moduleId))
            add(cell.id, `moduleIds.${index}`, moduleId, `unknown module "${moduleId}"`);
        });
      }
      return problems;
    },
  });
  const routes = descriptorCatalog('cell-routes', 'Cell routes', 'cellRoutes', cellRouteSchema, {
    resolve: (entries, context) => checkCell('cell-routes', entries, context).problems,
    present: (route: CellRouteDescriptor) => store.routeView(route),
  });
  const isolations = descriptorCatalog(
    'cell-health-isolations',
    'Cell health isolations',
    'cellHealthIsolations',
    cellHealthIsolationSchema,
    {
      resolve: (entries, context) => checkCell('cell-health-isolations', entries, context).problems,
    },
  );
  const automations = descriptorCatalog(
    'cell-traffic-automations',
    'Cell traffic automations',
    'cellTrafficAutomations',
    cellTrafficAutomationSchema,
    {
      narrowings: [
        {
          segment: 'providers',
          parameter: 'providerId',
          select: (entry: CellTrafficAutomationDescriptor, value: string) => entry.providerId === value,
        },
        {
          segment: 'edge-nodes',
          parameter: 'edgeNodeId',
          select: (entry: CellTrafficAutomationDescriptor, value: string) =>
            entry.edgeNodeIds.includes(value),
        },
      ],
      resolve(entries, context) {
        const { problems, add } = checkCell('cell-traffic-automations', entries, context);
        const routeEntries = context.entries('cell-routes') as CellRouteDescriptor[];
        for (const automation of entries) {
          if (automation.routeId !== null) {
            const route = routeEntries.find((candidate) => candidate.id === automation.routeId);
            if (!route)
              add(automation.id, 'routeId', automation.routeId, `unknown cell route "${automation.routeId}"`);
            else if (route.cellId !== automation.cellId) {
              add(
                automation.id,
                'routeId',
                automation.routeId,
                `route "${route.id}" belongs to cell "${route.cellId}", not "${automation.cellId}"`,
              );
            }
          }
          const providerManaged =
            automation.materializationMode === 'provider-managed' ||
            automation.materializationMode === 'provider-and-edge-managed';
          const edgeManaged =
            automation.materializationMode === 'edge-managed' ||
            automation.materializationMode === 'provider-and-edge-managed';
          if (providerManaged && automation.providerId === null)
            add(automation.id, 'providerId', null, 'a provider-managed automation needs a providerId');
          if (edgeManaged && automation.edgeNodeIds.length === 0)
            add(
              automation.id,
              'edgeNodeIds',
              [],
              'an edge-managed automation needs at least one edge node id',
            );
        }
        return problems;
      },
      present: (automation: CellTrafficAutomationDescriptor) => store.automationView(automation),
    },
  );
  return [boundaries, routes, isolations, automations];
}

const cellSurfaceKinds: Record<string, string> = {
  cells: 'cell-boundaries',
  'cell-routes': 'cell-routes',
  'cell-health-isolations': 'cell-health-isolations',
  'cell-traffic-automations': 'cell-traffic-automations',
};

/** Technology surfaces of the cells: one per entry, kind aligned with the endpoint and snapshot names. */
export function cellTechnologySurfaces(read: (catalogId: string) => readonly unknown[]): TechnologySurface[] {
  return Object.entries(cellSurfaceKinds).flatMap(([catalogId, kind]) =>
    read(catalogId).map((entry) => {
      const { id, displayName, ...metadata } = entry as { id: string; displayName: string } & Record<
        string,
        unknown
      >;
      return { id: `${kind}/${id}`, kind, displayName, sourcePackage: '@corekit/engine-core', metadata };
    }),
  );
}
