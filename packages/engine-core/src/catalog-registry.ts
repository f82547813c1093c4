import {
  CoreError,
  type CatalogDefinition,
  type CatalogProblem,
  type CatalogResolutionContext,
  type CatalogView,
} from '@corekit/abstractions';

interface Contribution {
  readonly catalogId: string;
  readonly sourceModuleId: string | null;
  readonly entries: readonly unknown[];
}

/**
 * Registered catalogs and their contributed entries. `resolve()` validates every contribution against the
 * catalog's schema, checks ids, source modules and the catalog's own references, and either publishes every
 * catalog or throws one CATALOG_INVALID error listing every problem; a broken entry is never published.
 */
export class CatalogRegistry {
  private readonly definitions = new Map<string, CatalogDefinition<unknown>>();
  private readonly contributions: Contribution[] = [];
  private readonly registrationProblems: CatalogProblem[] = [];
  private published = new Map<string, readonly unknown[]>();

  register(definition: CatalogDefinition<unknown>): void {
    const clash = [...this.definitions.values()].find(
      (existing) =>
        existing.id === definition.id ||
        existing.path === definition.path ||
        existing.snapshotField === definition.snapshotField,
    );
    if (clash) {
      this.registrationProblems.push({
        catalog: definition.id,
        entryId: '',
        field: clash.id === definition.id ? 'id' : clash.path === definition.path ? 'path' : 'snapshotField',
        value:
          clash.id === definition.id
            ? definition.id
            : clash.path === definition.path
              ? definition.path
              : definition.snapshotField,
        message: `catalog "${definition.id}" clashes with the already registered catalog "${clash.id}"`,
      });
      return;
    }
    this.definitions.set(definition.id, definition);
  }

  has(catalogId: string): boolean {
    return this.definitions.has(catalogId);
  }

  contribute(catalogId: string, sourceModuleId: string | null, entries: readonly unknown[]): void {
    this.contributions.push({ catalogId, sourceModuleId, entries });
  }

  resolve(moduleIds: ReadonlySet<string>, capabilities: ReadonlyMap<string, ReadonlySet<string>>): void {
    const problems: CatalogProblem[] = [...this.registrationProblems];
    const validated = new Map<string, unknown[]>();
    for (const id of this.definitions.keys()) validated.set(id, []);

    for (const contribution of this.contributions) {
      const definition = this.definitions.get(contribution.catalogId);
      if (!definition) {
        problems.push({
          catalog: contribution.catalogId,
          entryId: '',
          field: 'catalogId',
          value: contribution.catalogId,
          message: `no catalog "${contribution.catalogId}" is registered; register it (or add the pack that provides it) before contributing entries`,
        });
        continue;
      }
      if (contribution.sourceModuleId !== null && !moduleIds.has(contribution.sourceModuleId)) {
        problems.push({
          catalog: definition.id,
          entryId: '',
          field: 'sourceModuleId',
          value: contribution.sourceModuleId,
          message: `entries were contributed on behalf of unknown module "${contribution.sourceModuleId}"`,
        });
        continue;
      }
      contribution.entries.forEach((raw, index) => {
        const parsed = definition.entrySchema.safeParse(raw);
        const entryId = idOf(definition, raw) ?? `#${index}`;
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            problems.push({
              catalog: definition.id,
              entryId,
              field: issue.path.map(String).join('.') || '(entry)',
              value: valueAt(raw, issue.path),
              message: issue.message,
            });
          }
          return;
        }
        let entry = parsed.data;
        const declaredSource = (entry as { sourceModuleId?: unknown })?.sourceModuleId;
        if (typeof declaredSource === 'string' && !moduleIds.has(declaredSource)) {
          problems.push({
            catalog: definition.id,
            entryId,
            field: 'sourceModuleId',
            value: declaredSource,
            message: `unknown source module "${declaredSource}"`,
          });
          return;
        }
        if (definition.publish)
          entry = definition.publish(entry, { sourceModuleId: contribution.sourceModuleId });
        validated.get(definition.id)!.push(entry);
      });
    }

    for (const [catalogId, entries] of validated) {
      const definition = this.definitions.get(catalogId)!;
      if (!definition.idField) continue;
      const seen = new Set<string>();
      for (const entry of entries) {
        const id = idOf(definition, entry)!;
        if (seen.has(id)) {
          problems.push({
            catalog: catalogId,
            entryId: id,
            field: definition.idField,
            value: id,
            message: `duplicate id "${id}"`,
          });
        }
        seen.add(id);
      }
    }

    const context: CatalogResolutionContext = {
      moduleIds,
      capabilities,
      entries: (catalogId) => validated.get(catalogId) ?? [],
    };
    for (const [catalogId, entries] of validated) {
      const definition = this.definitions.get(catalogId)!;
      if (definition.resolve) problems.push(...definition.resolve(entries, context));
    }

    if (problems.length > 0) {
      const lines = problems.map(
        (problem) =>
          `${problem.catalog}${problem.entryId ? ` "${problem.entryId}"` : ''} ${problem.field}: ${problem.message} (value: ${JSON.stringify(problem.value)})`,
      );
      throw new CoreError(
        'CATALOG_INVALID',
        `The engine cannot be built; catalog problems:\n- ${lines.join('\n- ')}`,
        {
          problems,
        },
      );
    }
    this.published = validated;
  }

  /** Published entries of one catalog as contributed (without read-time presentation). */
  publishedEntries(catalogId: string): readonly unknown[] {
    return this.published.get(catalogId) ?? [];
  }

  views(): CatalogView[] {
    return [...this.definitions.values()].map((definition) => this.viewOf(definition));
  }

  view(catalogId: string): CatalogView | undefined {
    const definition = this.definitions.get(catalogId);
    return definition ? this.viewOf(definition) : undefined;
  }

  private viewOf(definition: CatalogDefinition<unknown>): CatalogView {
    const raw = () => (definition.list ? definition.list() : (this.published.get(definition.id) ?? []));
    const present = definition.present;
    const entries = present ? () => raw().map((entry) => present(entry)) : raw;
    return {
      definition,
      entries,
      find: (id) => {
        if (!definition.idField) return undefined;
        const entry = raw().find((candidate) => idOf(definition, candidate) === id);
        return entry === undefined || !present ? entry : present(entry);
      },
    };
  }
}

function idOf(definition: CatalogDefinition<unknown>, entry: unknown): string | undefined {
  if (!definition.idField || entry === null || typeof entry !== 'object') return undefined;
  const value = (entry as Record<string, unknown>)[definition.idField];
  return typeof value === 'string' ? value : value === undefined ? undefined : String(value);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
