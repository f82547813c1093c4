import type {
  HostedService,
  JobState,
  LifecycleHooks,
  ModuleDefinition,
  OperatorViewDefinition,
  RegistrationWarning,
  ServiceIdentity,
  TechnologySurface,
} from '@corekit/abstractions';
import type { Clock } from './clock';
import type { CatalogRegistry } from './catalog-registry';
import type { ConfigurationStore } from './configuration-store';
import type { DependencyHealthScheduler } from './dependency-health-scheduler';
import type { FailurePolicy, ShutdownOptions, StartupOptions } from './engine-options';
import type { ExecutionLifecycleHooks, ExecutionLifecycleTracker } from './execution-lifecycle';
import type { RedactingLogger } from './logger';
import type { EngineMeter } from './pack/engine-meter';
import type { EventIdCatalog } from './pack/event-id-catalog';
import type { ExtensionRegistry } from './pack/extension-registry';
import type { EngineOperationRegistry } from './pack/operation-registry';
import type { PackDeclarations } from './pack/pack-declarations';
import type { RuntimeEventHub } from './pack/runtime-event-hub';
import type { ModulePackages } from './packages/module-packages';
import type { RuntimeStory } from './runtime-story';
import type { BackgroundWork } from './runtime/runtime-lifecycle';

/** Everything the builder hands the engine. */
export interface EngineParts {
  readonly configuration: ConfigurationStore;
  readonly clock: Clock;
  readonly logger: RedactingLogger;
  readonly story: RuntimeStory;
  readonly events: RuntimeEventHub;
  readonly meter: EngineMeter;
  readonly modules: readonly ModuleDefinition[];
  readonly hostedServices: readonly HostedService[];
  readonly scheduler: (
    hooks: ConstructorParameters<typeof DependencyHealthScheduler>[4],
  ) => DependencyHealthScheduler;
  readonly catalogs: CatalogRegistry;
  readonly operatorViews: readonly OperatorViewDefinition[];
  readonly failurePolicy: FailurePolicy;
  /** `Engine:Shutdown`: the bound of each wait a stop takes. */
  readonly shutdown: ShutdownOptions;
  /** `Engine:Startup`: the bound of a start. */
  readonly startup: StartupOptions;
  readonly technologySurfaces: ReadonlyArray<() => readonly TechnologySurface[]>;
  readonly extensions: ExtensionRegistry;
  readonly operations: EngineOperationRegistry;
  readonly eventIds: EventIdCatalog;
  /** Packs that declared the contract specification they implement (`builder.declarePack`), all accepted. */
  readonly packs: PackDeclarations;
  /** The service and instance this engine is (`builder.service`, `builder.instanceId`), for the manifest. */
  readonly service: ServiceIdentity & { readonly instanceId: string };
  readonly warnings: readonly RegistrationWarning[];
  readonly jobs: BackgroundWork & { states(): JobState[] };
  readonly hooks: readonly LifecycleHooks[];
  /** Tracks execution graphs and hosted executions; runners are the hosted services sharing an execution's id. */
  readonly executions: (hooks: ExecutionLifecycleHooks) => ExecutionLifecycleTracker;
  /** Out-of-tree module packages: discovered, checked and imported on the first start. */
  readonly packages: ModulePackages;
  /** Package modules' operations, registered as they load. */
  readonly onModuleLoaded: (definition: ModuleDefinition, packageId: string) => void;
  /** Closes the store provider (pools, clients) once the engine has stopped; not on a restart. */
  readonly closeStores?: () => Promise<void>;
}
