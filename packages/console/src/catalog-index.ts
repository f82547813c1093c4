import type { Engine } from '@corekit/abstractions';
import { z } from 'zod';

/** One registered catalog as the console lists it. */
export const catalogIndexEntrySchema = z.object({
  id: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  /** The list route (`/engine/execution-graphs`); the console reads it relative to its own page. */
  path: z.string(),
  idField: z.string().nullable(),
  entryCount: z.number().int(),
  views: z.array(
    z.object({
      segment: z.string(),
      description: z.string(),
      attention: z.boolean(),
      /** Actions on an entry of the view, resolved to the operation's method and path template. */
      actions: z.array(
        z.object({
          label: z.string(),
          operationId: z.string(),
          method: z.string(),
          path: z.string(),
          params: z.record(z.string(), z.string()),
          body: z.record(z.string(), z.unknown()).nullable(),
        }),
      ),
    }),
  ),
});

export type CatalogIndexEntry = z.infer<typeof catalogIndexEntrySchema>;

/**
 * Every catalog the engine holds, generically: the engine's own and every installed pack's. A pack's new
 * catalog appears here (and in the console) without console code; so do its filtered views flagged
 * `attention` and their `actions` (an action is only a pointer to the pack's operation, which authorizes).
 */
export function catalogIndex(engine: Engine): CatalogIndexEntry[] {
  return engine
    .catalogs()
    .map((view) => ({
      id: view.definition.id,
      displayName: view.definition.displayName,
      description: view.definition.description ?? null,
      path: view.definition.path,
      idField: view.definition.idField ?? null,
      entryCount: view.entries().length,
      views: (view.definition.views ?? []).map((filter) => ({
        segment: filter.segment,
        description: filter.description,
        attention: filter.attention ?? false,
        actions: (filter.actions ?? []).flatMap((action) => {
          const operation = engine.operations.find(action.operationId);
          if (!operation) return [];
          return [
            {
              label: action.label,
              operationId: action.operationId,
              method: operation.method,
              path: operation.path,
              params: { ...(action.params ?? {}) },
              body: action.body ? { ...action.body } : null,
            },
          ];
        }),
      })),
    }))
    .sort((a, b) => a.displayName.localeCompare(b.displayName));
}
