import type { ServiceIdentity } from './service-identity';
import type { CatalogDefinition, OperatorViewDefinition } from './catalogs';
import type { ConfigurationReader } from './configuration';
import type { DependencyHealthContributor } from './dependency-health';
import type { Logger } from './logging';
import type { HostedService, ModuleDefinition } from './module';
import type { TechnologySurface } from './engine';
import type { ExtensionKey } from './pack/extension-key';
import type { ExtensionResolver } from './pack/extension-resolver';
import type { JobDefinition, JobHandle } from './pack/jobs';
import type { LifecycleHooks } from './pack/lifecycle-hooks';
import type { OperationDefinition } from './pack/operations';
import type { PackDeclaration } from './pack/pack-specification';
import type { PackTracer } from './pack/pack-tracer';
import type { RegistrationClaim } from './pack/registration-claim';
import type {
  EventIdCatalogEntry,
  PackMeter,
  RegistrationWarning,
  RuntimeEventPublisher,
  RuntimeStoryWriter,
} from './pack/runtime-writers';
import type { KeyedStore, StoreOptions, StoreProvider, StoreProviderTraits } from './pack/stores';

/**
 * What every `add*` registration call takes: the pack contract. Registration records intent; validation of
 * references happens at `build()`, which fails with one error listing every problem. A pack needs nothing
 * else from the engine: catalogs and views, operations, story entries, runtime events, counters, event ids,
 * lifecycle hooks, jobs, stores and typed extensions all come through here.
 */
export interface EngineBuilder extends ExtensionResolver {
  /**
   * The merged configuration. `configuration.bind(path, schema, codeOptions)` is the one section binder: it
   * merges code options over the section, coerces, refuses unknown keys (naming the closest known one),
   * refuses `<PLACEHOLDER>` secrets and registers every `secretString()` value for redaction.
   */
  readonly configuration: ConfigurationReader;
  /** Structured logger; records are redacted of registered secrets. */
  readonly logger: Logger;
  /** Writes runtime-story entries (open kinds); entries written before start are kept. */
  readonly story: RuntimeStoryWriter;
  /** Publishes runtime events to the hosts' live transports (SSE, WebSocket). */
  readonly events: RuntimeEventPublisher;
  /** Creates counters and histograms on the engine's meter; listed in `/engine/diagnostics`. */
  readonly meter: PackMeter;
  /**
   * Starts spans on the engine's tracer (`corekit.engine`) and reads or writes W3C trace context in message
   * headers; a no-op until the host registers an OpenTelemetry SDK (`addOpenTelemetry`).
   */
  readonly tracer: PackTracer;
  /**
   * This engine instance: `<host>:<pid>:<random>`, new for every builder (a restarted process, or a second
   * engine in one process, is another instance). Packs name it as the owner of in-flight work they hold
   * under a lease in a shared store (`StoreLeases`), so every pack of one replica names the same owner.
   */
  readonly instanceId: string;
  /**
   * The service this instance is a replica of (`Engine:Service`, else the OpenTelemetry environment variables):
   * packs name the service by it (alert incidents, presence, telemetry) rather than by a setting of their own.
   */
  readonly service: ServiceIdentity;
  /**
   * Declares the package a registration comes from and the pack contract specification it implements. The
   * engine refuses a specification it does not implement, at once, with PACK_SPECIFICATION_UNSUPPORTED naming
   * both versions; it lists accepted declarations in the manifest (`packs`). Declaring a package again (a
   * second `add*` call) is accepted. A pack that declares nothing is not checked (docs/releasing.md).
   */
  declarePack(pack: PackDeclaration): this;
  addModule(module: ModuleDefinition): this;
  addDependencyHealthContributor(contributor: DependencyHealthContributor): this;
  /** Registers a catalog kind (routes, views and snapshot field follow from it). Registering an id twice fails. */
  addCatalog<T>(definition: CatalogDefinition<T>): this;
  /** Contributes entries to a registered catalog on behalf of a module (null for the host itself). */
  addCatalogEntries(catalogId: string, sourceModuleId: string | null, entries: readonly unknown[]): this;
  /**
   * Declares a list an operator should look at (no route of its own; operator surfaces show it). Ids are
   * unique; an action naming an unknown operation or leaving a path parameter unfilled fails the build.
   */
  addOperatorView<T>(definition: OperatorViewDefinition<T>): this;
  /** Registers an operation; hosts serve it (web host over HTTP) and in-process callers invoke it. */
  addOperation(operation: OperationDefinition<any, any, any, any>): this;
  addHostedService(service: HostedService): this;
  /** Adds technology surfaces (2.5), evaluated on read so they can report live state. */
  addTechnologySurfaces(source: () => readonly TechnologySurface[]): this;
  /** Registers a recurring or manual background job on the engine's one job scheduler. */
  addJob<TResult>(job: JobDefinition<TResult>): JobHandle<TResult>;
  /**
   * Opens a named keyed store from the engine's store provider (`Engine:Stores`: memory by default, a local
   * file directory when configured, or a provider a package installed with `useStoreProvider`). The handle
   * binds to the provider in effect at the end of registration when first used, so the order of `openStore`
   * and `useStoreProvider` calls does not matter.
   */
  openStore<T>(name: string, options?: StoreOptions): KeyedStore<T>;
  /**
   * Installs the engine's one store provider (PostgreSQL, Redis...) for every store, opened before or after the
   * call. Throws after `build()`, after a store was used or `storeTraits()` read, and for a second provider.
   */
  useStoreProvider(provider: StoreProvider): this;
  /**
   * What the store provider `openStore` uses guarantees: its kind, whether records survive a restart, whether
   * several processes see them. Ask it when the engine starts (a lifecycle hook), once every
   * `useStoreProvider` call was made, to choose a strategy (an in-process structure when nothing is shared).
   */
  storeTraits(): StoreProviderTraits;
  /** Registers a package's event-id range with a name per id. Overlapping another package's range fails the build. */
  addEventIds(entry: EventIdCatalogEntry): this;
  addLifecycleHooks(hooks: LifecycleHooks): this;
  /** Records a registration warning: logged at build and listed in `/engine/diagnostics`. */
  addWarning(warning: RegistrationWarning): this;
  /** Registers a value that must never appear in any output (bound `secretString()` fields are registered by the binder). */
  addSecret(value: string): this;
  /** Provides a typed extension (`engine.resolve(key)` answers it). Providing a key twice fails. */
  provide<T>(key: ExtensionKey<T>, value: T): this;
  /**
   * Claims the one registration of an `add*` call (`{ packageName: '@corekit/agents', entry: 'addAgents' }`):
   * the first claim of a key is recorded, a second one on this builder throws a `CoreError` with code
   * `ALREADY_REGISTERED` (`registrationErrorCodes.alreadyRegistered`) naming the entry and the package. Call
   * it first in the `add*` call, before reading configuration.
   */
  claimRegistration(claim: RegistrationClaim): this;
  /** True when a registration with this key was made or claimed (lets a pack check another one is present). */
  hasRegistration(key: string): boolean;
  /** Records a registration key without refusing a repeat (kits that skip, rather than refuse, a repeat). */
  markRegistration(key: string): void;
}
