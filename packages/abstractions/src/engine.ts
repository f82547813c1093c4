import type { ServiceIdentity } from './service-identity';
import type { CatalogView, OperatorViewDefinition } from './catalogs';
import type { ConfigurationReader } from './configuration';
import type {
  DependencyHealthEntry,
  FailureContext,
  HealthReport,
  RuntimeState,
  HealthStatus,
} from './health';
import type { EventIdRange } from './event-ids';
import type { ExtensionResolver } from './pack/extension-resolver';
import type { JobState } from './pack/jobs';
import type { OperationRegistry } from './pack/operations';
import type { RegistrationWarning } from './pack/runtime-writers';

/** One entry of the runtime story, the ordered lifecycle narrative. */
export interface RuntimeStoryEntry {
  /** Monotonic sequence number; gaps mean older entries were dropped by the bound. */
  readonly sequence: number;
  readonly atUtc: string;
  /**
   * Open set. The engine writes `runtime`, `module`, `package`, `restart`, `failure`, `execution-graph`,
   * `hosted-execution`, `hosted-service` and `job`; packs write their own (`eventing.dispatch`).
   */
  readonly kind: string;
  /** Id of what changed (module id, package id, graph id...), null for the runtime itself. */
  readonly subjectId: string | null;
  /** What happened: `loaded`, `initialized`, `started`, `stopped`, `failed`, `active`, `deactivated`... */
  readonly transition: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface ModuleLifecycle {
  readonly moduleId: string;
  readonly version: string;
  readonly state: string;
  readonly loadedAtUtc: string | null;
  readonly initializedAtUtc: string | null;
  readonly startedAtUtc: string | null;
  readonly stoppedAtUtc: string | null;
}

export interface ExecutionLifecycle {
  readonly id: string;
  readonly kind: 'execution-graph' | 'hosted-execution';
  readonly state: string;
  readonly loadedAtUtc: string | null;
  readonly activeAtUtc: string | null;
  readonly deactivatedAtUtc: string | null;
}

export interface RuntimeStoryDocument {
  readonly status: RuntimeState;
  readonly restartCount: number;
  readonly lastFailure: FailureContext | null;
  readonly packages: readonly PackageRecord[];
  readonly modules: readonly ModuleLifecycle[];
  readonly executions: readonly ExecutionLifecycle[];
  readonly timeline: readonly RuntimeStoryEntry[];
  readonly maxEntries: number;
  readonly droppedEntries: number;
}

export interface ManifestDocument {
  readonly engine: {
    readonly name: string;
    readonly version: string;
    /** The pack contract specification versions this engine implements (docs/releasing.md). */
    readonly packSpecificationVersions: readonly number[];
  };
  /** The service this instance belongs to and the instance itself (`builder.service`, `builder.instanceId`). */
  readonly service: ServiceIdentity & { readonly instanceId: string };
  readonly modules: ReadonlyArray<{
    readonly id: string;
    readonly version: string;
    readonly displayName: string;
    readonly capabilities: readonly string[];
    readonly origin: 'code' | 'package';
  }>;
  /** Packs that declared the contract specification they implement (`builder.declarePack`). */
  readonly packs: ReadonlyArray<{ readonly packageName: string; readonly specificationVersion: number }>;
}

/**
 * One instrument as `/engine/diagnostics` lists it. `counters` is keyed by the instrument name (what a metrics
 * backend shows), the engine's instruments and every pack's alike.
 */
export interface DiagnosticsInstrument {
  readonly kind: 'counter' | 'histogram';
  /** What it counts or measures, and by which attributes. */
  readonly description: string;
  /** The unit (`ms`...), when the instrument declares one. */
  readonly unit?: string;
}

export interface DiagnosticsDocument {
  readonly meterName: string;
  readonly activitySourceName: string;
  /** Every instrument on the engine's meter, keyed by instrument name. */
  readonly counters: Readonly<Record<string, DiagnosticsInstrument>>;
  readonly conventions: Readonly<Record<string, string>>;
  readonly eventIds: readonly EventIdRange[];
  /** Registration warnings (an `add*Health` call that found no dependency...). */
  readonly warnings: readonly RegistrationWarning[];
  /** Background jobs and their last runs. */
  readonly jobs: readonly JobState[];
  readonly liveness: HealthReport;
  readonly readiness: HealthReport;
  readonly dependencies: readonly DependencyHealthEntry[];
  readonly healthRoutes: readonly string[];
}

export interface StatusDocument {
  readonly state: RuntimeState;
  readonly liveness: HealthStatus;
  readonly readiness: HealthStatus;
  readonly startedAtUtc: string | null;
  readonly restartCount: number;
  readonly lastFailure: FailureContext | null;
  readonly restartAvailableAtUtc: string | null;
  readonly activeWindow: string | null;
  readonly activeWindowEndsAtUtc: string | null;
}

/** A module package discovered out of tree (spec 1, issue "out-of-tree module packages"). */
export interface PackageRecord {
  readonly id: string;
  readonly version: string;
  readonly directory: string;
  readonly outcome: 'loaded' | 'denied' | 'rejected' | 'failed';
  readonly reasons: readonly string[];
  /** Id of the module the package provides, once imported; null when it was never imported. */
  readonly moduleId?: string | null;
  /**
   * How the signature was judged: `trusted-certificate-chain`, `trusted-public-key`, `untrusted-signer`,
   * `invalid`, `unsigned`, or `not-evaluated` when the package policy denied it first.
   */
  readonly verification?: string;
  /** SHA-256 of the signing certificate's DER encoding, uppercase hex; null when signed without a certificate. */
  readonly certificateThumbprint?: string | null;
  readonly [field: string]: unknown;
}

/** An entry of `/engine/technology-surfaces` (2.5). */
export interface TechnologySurface {
  readonly id: string;
  readonly kind: string;
  readonly displayName: string;
  readonly sourcePackage: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A runtime event pushed to live transports (SSE, WebSocket). */
export type RuntimeEvent =
  | {
      readonly type: 'health-changed';
      readonly probe: 'liveness' | 'readiness';
      readonly status: HealthStatus;
      readonly previous: HealthStatus;
      readonly atUtc: string;
    }
  | {
      readonly type: 'dependency-changed';
      readonly dependencyId: string;
      readonly status: HealthStatus;
      readonly previous: HealthStatus | null;
      readonly atUtc: string;
    }
  | {
      /**
       * Every completed dependency check, whether or not the status changed: the published entry (status,
       * duration, error, data, timestamps). Live views use it to show each run's duration and age without polling.
       */
      readonly type: 'dependency-checked';
      readonly entry: DependencyHealthEntry;
      readonly atUtc: string;
    }
  | { readonly type: 'runtime-story'; readonly entry: RuntimeStoryEntry }
  | {
      /** A pack's own event (`PackRuntimeEventInput`), published as is. */
      readonly type: 'pack-event';
      readonly name: string;
      readonly subjectId: string | null;
      readonly data: Readonly<Record<string, unknown>>;
      readonly atUtc: string;
    };

/** Options of `Engine.recordStartFailure`. */
export interface StartFailureOptions {
  /**
   * Whether a later `start()` or `restart()` may cure it. Default: true, unless the error is a CoreError whose
   * `details.restartable` is false. Pass false for what only a new process (new configuration) cures: a
   * configuration error, the host's own section refused, a port the host cannot bind.
   */
  readonly restartable?: boolean;
  /** The module at fault, when there is one. */
  readonly moduleId?: string | null;
}

/**
 * The built engine as hosts see it: lifecycle control plus every read surface. Reads never run a
 * dependency check; they answer from cached state.
 */
export interface Engine extends ExtensionResolver {
  readonly configuration: ConfigurationReader;
  readonly state: RuntimeState;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Refused with code ENGINE_RESTART_BACKOFF before restartAvailableAtUtc. */
  restart(): Promise<void>;
  /**
   * Enters the shutdown phase without stopping yet: readiness turns Unhealthy at once, operations are refused,
   * the liveness grace period starts, and the packs' `stopping` hooks run. Resolves once those hooks finished
   * (at most `Engine:Shutdown:StoppingHooksTimeout`). Hosts call it on SIGTERM and await it, drain their
   * requests, then call stop() (which awaits the same hooks when nobody called this first).
   */
  beginShutdown(): Promise<void>;
  /**
   * Refuses every configuration key under `Engine:` that no registration bound (CONFIGURATION_INVALID, each
   * key with its closest known key). The first start runs it too; hosts call it earlier, once their own
   * sections are bound and before they open a port, so a misspelled key ends the process before it serves.
   * Refused before the first start, it is a start failure: the state turns Failed, not restartable.
   */
  checkConfiguration?(): void;
  /**
   * Records a start failure that a host detected itself, outside `start()` (its listener could not bind, its own
   * configuration section was refused): the state turns Failed, `lastFailure` holds `phase`, the error's code
   * and (redacted) message, the time and `restartable`, and the runtime story gets a `failure` entry. Allowed
   * while the runtime is Created, Stopped or Failed (the newest failure wins); refused with ENGINE_INVALID_STATE
   * while it is Starting, Started or Stopping. After a failure that is not restartable, `start()` and `restart()`
   * throw ENGINE_NOT_RESTARTABLE.
   */
  recordStartFailure(phase: string, error: unknown, options?: StartFailureOptions): void;
  health(): HealthReport;
  liveness(): HealthReport;
  readiness(): HealthReport;
  /** Report with dependency details stripped, for hosts that hide details. */
  dependencies(): readonly DependencyHealthEntry[];
  status(): StatusDocument;
  diagnostics(healthRoutes?: readonly string[]): DiagnosticsDocument;
  runtimeStory(): RuntimeStoryDocument;
  manifest(): ManifestDocument;
  snapshot(): Record<string, unknown>;
  catalogs(): readonly CatalogView[];
  catalog(id: string): CatalogView | undefined;
  /** Every operator view the installed packs declared (`builder.addOperatorView`). */
  operatorViews(): readonly OperatorViewDefinition[];
  packages(): readonly PackageRecord[];
  packagePolicy(): Record<string, unknown>;
  trustPolicy(): Record<string, unknown>;
  technologySurfaces(): readonly TechnologySurface[];
  /** Subscribes to runtime events; returns the unsubscribe function. */
  subscribe(listener: (event: RuntimeEvent) => void): () => void;
  /** Every operation registered by packs, modules and adapters; hosts serve them, tests invoke them. */
  readonly operations: OperationRegistry;
  /** The state of every background job. */
  jobs(): readonly JobState[];
}
