import type { EngineBuilder } from '@corekit/abstractions';
import { z } from 'zod';

export const widgetSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  sourceModuleId: z.string(),
  color: z.enum(['red', 'blue']),
  providerId: z.string(),
});
export const widgetStateSchema = z.object({ widgetId: z.string(), spinning: z.boolean() });

/**
 * Two catalogs a later pack could register: `/engine/widgets` (by id, narrowed by provider) and
 * `/engine/widgets/runtime`, whose literal `runtime` segment must win over the widget id parameter.
 */
export function addWidgetCatalogs(builder: EngineBuilder): void {
  builder.addModule({ id: 'workshop', version: '2.1.0', capabilities: ['widgets.make'] });
  builder.addCatalog({
    id: 'widgets',
    displayName: 'Widgets',
    description: 'Widgets the workshop makes',
    path: '/engine/widgets',
    snapshotField: 'widgets',
    idField: 'id',
    entrySchema: widgetSchema,
    narrowings: [
      {
        segment: 'providers',
        parameter: 'providerId',
        description: 'widgets of one provider',
        select: (entry, value) => entry.providerId === value,
      },
      { segment: 'colors', parameter: 'color', select: (entry, value) => entry.color === value },
    ],
  });
  builder.addCatalog({
    id: 'widget-states',
    displayName: 'Widget runtime states',
    path: '/engine/widgets/runtime',
    snapshotField: 'widgetStates',
    idField: 'widgetId',
    entrySchema: widgetStateSchema,
    list: () => [
      { widgetId: 'w-1', spinning: true },
      { widgetId: 'w-2', spinning: false },
    ],
  });
  builder.addCatalogEntries('widgets', 'workshop', [
    { id: 'w-1', displayName: 'First', sourceModuleId: 'workshop', color: 'red', providerId: 'acme' },
    { id: 'w-2', displayName: 'Second', sourceModuleId: 'workshop', color: 'blue', providerId: 'acme' },
    { id: 'w-3', displayName: 'Third', sourceModuleId: 'workshop', color: 'blue', providerId: 'globex' },
  ]);
}
