import { CoreError } from '@corekit/abstractions';
import type { KnowledgeIndexProvider } from './index-provider';

/**
 * The installed providers and the one `Engine:Retrieval:Provider` selects. When the selected id is not
 * installed, indexing and querying answer 404 not-active and the surfaces report awaiting-provider.
 */
export class ProviderSelection {
  private readonly providers = new Map<string, KnowledgeIndexProvider>();

  constructor(readonly selectedId: string) {}

  add(provider: KnowledgeIndexProvider): void {
    if (this.providers.has(provider.id)) {
      throw new CoreError(
        'RETRIEVAL_PROVIDER_DUPLICATE',
        `knowledge index provider "${provider.id}" is installed twice`,
      );
    }
    this.providers.set(provider.id, provider);
  }

  selected(): KnowledgeIndexProvider | undefined {
    return this.providers.get(this.selectedId);
  }

  list(): readonly KnowledgeIndexProvider[] {
    return [...this.providers.values()];
  }
}
