import type { CatalogDefinition } from './catalogs';
import type { ConfigurationReader } from './configuration';
import type { DependencyHealthContributor } from './dependency-health';
import type { Logger } from './logging';
import type { HostedService, ModuleDefinition } from './module';
import type { TechnologySurface } from './engine';

/**
 * What every `add*` registration call takes. Registration only records intent; validation of references
 * happens at `build()`, which fails with one error listing every problem.
 */
export interface EngineBuilder {
  /** The merged configuration; `add*` calls bind and validate their sections through it. */
  readonly configuration: ConfigurationReader;
  /** Structured logger; records are redacted of registered secrets. */
  readonly logger: Logger;
  addModule(module: ModuleDefinition): this;
  addDependencyHealthContributor(contributor: DependencyHealthContributor): this;
  /** Registers a catalog kind (routes and snapshot field follow from it). Registering an id twice fails. */
  addCatalog<T>(definition: CatalogDefinition<T>): this;
  /** Contributes entries to a registered catalog on behalf of a module (null for the host itself). */
  addCatalogEntries(catalogId: string, sourceModuleId: string | null, entries: readonly unknown[]): this;
  addHostedService(service: HostedService): this;
  /** Adds technology surfaces (2.5), evaluated on read so they can report live state. */
  addTechnologySurfaces(source: () => readonly TechnologySurface[]): this;
  /** Registers a value that must never appear in any output (set automatically for bound secret fields). */
  addSecret(value: string): this;
  /**
   * Makes a value available to hosts as `engine.extension(key)`: how a pack hands its implementation of an
   * /engine surface contract to the web host without the host depending on the pack.
   */
  setExtension(key: string, value: unknown): this;
  /** True when a registration with this key was made (lets `add*` calls refuse or skip a second call). */
  hasRegistration(key: string): boolean;
  markRegistration(key: string): void;
}
