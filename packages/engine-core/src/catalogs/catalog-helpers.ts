import type { CatalogDefinition, CatalogProblem } from '@corekit/abstractions';
import type { ZodType } from 'zod';

/** A descriptive catalog with an `id` field, its route under /engine and its snapshot field. */
export function descriptorCatalog<T>(
  id: string,
  displayName: string,
  snapshotField: string,
  entrySchema: ZodType<T>,
  extra: Partial<CatalogDefinition<T>> = {},
): CatalogDefinition<T> {
  return { id, displayName, path: `/engine/${id}`, snapshotField, idField: 'id', entrySchema, ...extra };
}

/** Collects problems for one catalog with less ceremony. */
export function problemCollector(catalog: string) {
  const problems: CatalogProblem[] = [];
  return {
    problems,
    add(entryId: string, field: string, value: unknown, message: string) {
      problems.push({ catalog, entryId, field, value, message });
    },
  };
}

/** Ids of the entries of another catalog. */
export function idsOf(entries: readonly unknown[]): Set<string> {
  return new Set(entries.map((entry) => (entry as { id: string }).id));
}
