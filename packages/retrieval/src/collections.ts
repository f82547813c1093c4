import { CoreError, isIdentifier } from '@corekit/abstractions';
import type { IndexedCollection } from './index-provider';

/** A metadata value safe to store and show (never put personal data or secrets in it). */
export type KnowledgeMetadataValue = string | number | boolean | null;

/** One document of a collection's source. */
export interface KnowledgeDocument {
  /** Stable id within the collection (1 to 512 characters). */
  readonly id: string;
  /** Text per field; fields not declared by the collection are ignored. */
  readonly text: Readonly<Record<string, string | undefined>>;
  /** Safe metadata returned with matches (strings, numbers, booleans). */
  readonly metadata?: Readonly<Record<string, KnowledgeMetadataValue>>;
  /** When the document last changed: unchanged documents are skipped by the next indexing run. */
  readonly updatedAt: Date | string | number;
}

/** Where a collection's documents come from: called once per indexing run, iterated to the end. */
export type KnowledgeDocumentSource = (context: {
  readonly collectionId: string;
  readonly signal: AbortSignal;
}) => AsyncIterable<KnowledgeDocument> | Iterable<KnowledgeDocument>;

/** A collection a module declares. */
export interface KnowledgeCollectionDefinition {
  readonly id: string;
  readonly displayName?: string;
  readonly description?: string;
  /** Text fields to index, in order (1 to 20; the first is the title-like field by convention). */
  readonly fields: readonly string[];
  /** Score multiplier per field (0.1 to 100; default 1). */
  readonly boosts?: Readonly<Record<string, number>>;
  readonly source: KnowledgeDocumentSource;
  readonly tags?: readonly string[];
}

/** A registered collection: its definition plus the module it belongs to. */
export interface RegisteredCollection extends KnowledgeCollectionDefinition {
  readonly sourceModuleId: string;
}

/** Collections by id, with the checks done at registration and at build. */
export class CollectionRegistry {
  private readonly collections = new Map<string, RegisteredCollection>();

  add(sourceModuleId: string, definition: KnowledgeCollectionDefinition): RegisteredCollection {
    const where = `knowledge collection "${String(definition.id)}"`;
    if (!isIdentifier(definition.id)) {
      throw new CoreError('RETRIEVAL_COLLECTION_INVALID', `${where}: id must be an identifier`);
    }
    if (this.collections.has(definition.id)) {
      throw new CoreError('RETRIEVAL_COLLECTION_DUPLICATE', `${where} is registered twice`);
    }
    const fields = definition.fields ?? [];
    if (fields.length < 1 || fields.length > 20 || new Set(fields).size !== fields.length) {
      throw new CoreError(
        'RETRIEVAL_COLLECTION_INVALID',
        `${where}: 1 to 20 distinct text fields are required`,
      );
    }
    for (const field of fields) {
      if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(field)) {
        throw new CoreError(
          'RETRIEVAL_COLLECTION_INVALID',
          `${where}: field "${field}" must be a simple name`,
        );
      }
    }
    for (const [field, boost] of Object.entries(definition.boosts ?? {})) {
      if (!fields.includes(field) || !(boost >= 0.1 && boost <= 100)) {
        throw new CoreError(
          'RETRIEVAL_COLLECTION_INVALID',
          `${where}: boost "${field}" must name a declared field and lie in 0.1..100`,
        );
      }
    }
    if (typeof definition.source !== 'function') {
      throw new CoreError('RETRIEVAL_COLLECTION_INVALID', `${where}: source must be a function`);
    }
    const registered = Object.freeze({ ...definition, fields: [...fields], sourceModuleId });
    this.collections.set(definition.id, registered);
    return registered;
  }

  get(id: string): RegisteredCollection | undefined {
    return this.collections.get(id);
  }

  list(): readonly RegisteredCollection[] {
    return [...this.collections.values()];
  }

  /** Build-time problems: collections of unknown modules, background scope naming unknown collections. */
  problems(moduleIds: ReadonlySet<string>, backgroundScope: readonly string[]): string[] {
    const problems: string[] = [];
    for (const collection of this.collections.values()) {
      if (!moduleIds.has(collection.sourceModuleId)) {
        problems.push(
          `knowledge collection "${collection.id}" belongs to module "${collection.sourceModuleId}", which is not registered`,
        );
      }
    }
    for (const id of backgroundScope) {
      if (!this.collections.has(id)) {
        problems.push(
          `Engine:Retrieval:BackgroundReindexCollectionIds names "${id}", which is not a registered knowledge collection`,
        );
      }
    }
    return problems;
  }
}

/** The provider's view of a collection. */
export function indexedCollection(collection: KnowledgeCollectionDefinition): IndexedCollection {
  return { id: collection.id, fields: collection.fields, boosts: { ...(collection.boosts ?? {}) } };
}
