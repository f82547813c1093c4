import type { CatalogView } from '@corekit/abstractions';
import { z } from 'zod';
import type { HostRoute } from './host-route';
import { HttpProblem, webHostProblemCodes } from './problem-details';

function parameterName(name: string, catalogId: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) {
    throw new HttpProblem(
      500,
      'CATALOG_ROUTE_INVALID',
      `Catalog ${catalogId}: "${name}" cannot be a route parameter name (letters, digits and _ only, not starting with a digit)`,
    );
  }
  return name;
}

/**
 * The read routes of one registered catalog, generically: the list at `definition.path`, one entry by
 * `idField` (404 problem for an unknown id) and each narrowing. A new catalog needs no web host change.
 */
export function catalogRoutes(view: CatalogView): HostRoute[] {
  const { definition } = view;
  const list = z.array(definition.entrySchema);
  const tags = [definition.displayName];
  const routes: HostRoute[] = [
    {
      method: 'get',
      path: definition.path,
      rel: definition.id,
      summary: `List ${definition.displayName}`,
      description: definition.description,
      tags,
      responses: { 200: { description: `Every entry of the ${definition.id} catalog`, schema: list } },
      handler: (_request, response) => {
        response.setHeader('Cache-Control', 'no-store');
        response.json(view.entries());
      },
    },
  ];
  for (const narrowing of definition.narrowings ?? []) {
    const parameter = parameterName(narrowing.parameter, definition.id);
    const segment = narrowing.segment.replace(/^\/+|\/+$/g, '');
    routes.push({
      method: 'get',
      path: `${definition.path}/${segment}/:${parameter}`,
      rel: `${definition.id}:${segment}`,
      summary: `List ${definition.displayName} narrowed by ${parameter}`,
      description: narrowing.description,
      tags,
      parameters: { [parameter]: narrowing.description ?? `the ${parameter} to narrow by` },
      responses: {
        200: { description: `The entries whose ${parameter} matches (possibly none)`, schema: list },
      },
      handler: (request, response) => {
        const value = String(request.params[parameter]);
        response.setHeader('Cache-Control', 'no-store');
        response.json(view.entries().filter((entry) => narrowing.select(entry, value)));
      },
    });
  }
  for (const filter of definition.views ?? []) {
    const segment = filter.segment.replace(/^\/+|\/+$/g, '');
    routes.push({
      method: 'get',
      path: `${definition.path}/${segment}`,
      rel: `${definition.id}:${segment}`,
      summary: `List ${definition.displayName}: ${segment}`,
      description: filter.description,
      tags,
      responses: { 200: { description: filter.description, schema: list } },
      handler: (_request, response) => {
        response.setHeader('Cache-Control', 'no-store');
        response.json(view.entries().filter((entry) => filter.select(entry)));
      },
    });
  }
  if (definition.idField) {
    const parameter = parameterName(definition.idField, definition.id);
    routes.push({
      method: 'get',
      path: `${definition.path}/:${parameter}`,
      rel: `${definition.id}:by-id`,
      summary: `One ${definition.displayName} entry by ${parameter}`,
      description: definition.description,
      tags,
      parameters: { [parameter]: `the entry's ${parameter}` },
      responses: {
        200: { description: 'The entry', schema: definition.entrySchema },
        404: {
          description: `No entry has this ${parameter} (problem code ${webHostProblemCodes.catalogEntryNotFound})`,
        },
      },
      handler: (request, response) => {
        const id = String(request.params[parameter]);
        const entry = view.find(id);
        if (entry === undefined) {
          throw new HttpProblem(
            404,
            webHostProblemCodes.catalogEntryNotFound,
            `The ${definition.id} catalog has no entry with ${parameter} "${id}"; GET ${definition.path} lists every entry`,
            { catalogId: definition.id, [parameter]: id },
          );
        }
        response.setHeader('Cache-Control', 'no-store');
        response.json(entry);
      },
    });
  }
  return routes;
}
