import { performance } from 'node:perf_hooks';
import {
  CoreError,
  engineEventIds,
  errorCode,
  eventIdRanges,
  type CatalogView,
  type DependencyHealthEntry,
  type DiagnosticsDocument,
  type Engine,
  type FailureContext,
  type HealthReport,
  type HealthStatus,
  type HostedService,
  type Logger,
  type ManifestDocument,
  type ModuleDefinition,
  type ModuleLifecycle,
  type PackageRecord,
  type RuntimeEvent,
  type RuntimeState,
  type RuntimeStoryDocument,
  type StatusDocument,
  type TechnologySurface,
} from '@corekit/abstractions';
import packageJson from '../package.json';
import { isoAt, type Clock } from './clock';
import type { CatalogRegistry } from './catalog-registry';
import type { ConfigurationStore } from './configuration-store';
import { DependencyHealthScheduler } from './dependency-health-scheduler';
import {
  activitySourceName,
  counterNames,
  diagnosticsConventions,
  EngineInstruments,
  meterName,
} from './diagnostics';
import type { FailurePolicy } from './engine-options';
import { livenessVerdict, readinessVerdict, toReport, type LifecycleFacts } from './health-aggregator';
import type { RedactingLogger } from './logger';
import { RuntimeStory } from './runtime-story';
import type { ExecutionLifecycleHooks, ExecutionLifecycleTracker } from './execution-lifecycle';
import type { ModulePackages } from './packages/module-packages';

export const engineVersion: string = packageJson.version;

/** Everything the builder hands the engine. */
export interface EngineParts {
  readonly configuration: ConfigurationStore;
  readonly clock: Clock;
  readonly logger: RedactingLogger;
  readonly modules: readonly ModuleDefinition[];
  readonly hostedServices: readonly HostedService[];
  readonly scheduler: (
    hooks: ConstructorParameters<typeof DependencyHealthScheduler>[4],
  ) => DependencyHealthScheduler;
  readonly catalogs: CatalogRegistry;
  readonly failurePolicy: FailurePolicy;
  readonly storyMaxEntries: number;
  readonly technologySurfaces: ReadonlyArray<() => readonly TechnologySurface[]>;
  readonly extensions: ReadonlyMap<string, unknown>;
  /** Tracks execution graphs and hosted executions; runners are the hosted services sharing an execution's id. */
  readonly executions: (hooks: ExecutionLifecycleHooks) => ExecutionLifecycleTracker;
  /** Out-of-tree module packages: discovered, checked and imported on the first start. */
  readonly packages: ModulePackages;
}

interface ModuleState {
  definition: ModuleDefinition;
  origin: 'code' | 'package';
  state: string;
  loadedAt: number | null;
  initializedAt: number | null;
  startedAt: number | null;
  stoppedAt: number | null;
}

/** The built runtime: lifecycle state machine, health aggregation and every read surface. */
export class CoreEngine implements Engine {
  private runtimeState: RuntimeState = 'Created';
  private startedAt: number | null = null;
  private shutdownStartedAt: number | null = null;
  private failedAt: number | null = null;
  private restartCount = 0;
  private lastFailure: FailureContext | null = null;
  private readonly story: RuntimeStory;
  private readonly scheduler: DependencyHealthScheduler;
  private readonly instruments = new EngineInstruments();
  private readonly listeners = new Set<(event: RuntimeEvent) => void>();
  private readonly moduleStates: ModuleState[];
  private readonly executions: ExecutionLifecycleTracker;
  private readonly startedHostedServices: HostedService[] = [];
  private lifecycleAbort = new AbortController();
  private lastPublished: { liveness: HealthStatus | null; readiness: HealthStatus | null } = {
    liveness: null,
    readiness: null,
  };
  private transition: Promise<void> = Promise.resolve();

  constructor(private readonly parts: EngineParts) {
    this.story = new RuntimeStory(parts.clock, parts.storyMaxEntries, (entry) =>
      this.emit({ type: 'runtime-story', entry }),
    );
    this.scheduler = parts.scheduler({
      redact: (value) => parts.logger.redact(value),
      onStatusChange: (entry, previous) => {
        this.emit({
          type: 'dependency-changed',
          dependencyId: entry.id,
          status: entry.status,
          previous,
          atUtc: this.nowIso(),
        });
        this.publishHealthChanges();
      },
      onRun: (contributor, outcome) =>
        this.instruments.count('dependencyChecks', { kind: contributor.kind, outcome }),
    });
    this.moduleStates = [];
    for (const definition of parts.modules) this.addModule(definition, 'code');
    this.executions = parts.executions({
      record: (entry) => this.story.record(entry),
      count: (key, attributes) => this.instruments.count(key, attributes),
    });
  }

  get configuration() {
    return this.parts.configuration;
  }

  get state(): RuntimeState {
    return this.runtimeState;
  }

  get logger(): Logger {
    return this.parts.logger;
  }

  start(): Promise<void> {
    return this.serialize(() => this.startNow());
  }

  stop(): Promise<void> {
    return this.serialize(() => this.stopNow());
  }

  restart(): Promise<void> {
    return this.serialize(async () => {
      const now = this.parts.clock.now();
      if (this.runtimeState === 'Failed' && this.lastFailure && !this.lastFailure.restartable) {
        throw new CoreError(
          'ENGINE_NOT_RESTARTABLE',
          `The startup failure (${this.lastFailure.code}) is not restartable`,
          {
            lastFailure: this.lastFailure,
          },
        );
      }
      if (this.runtimeState === 'Failed' && this.failedAt !== null) {
        const availableAt = this.failedAt + this.parts.failurePolicy.ManualRestartBackoff;
        if (now < availableAt) {
          throw new CoreError(
            'ENGINE_RESTART_BACKOFF',
            `Restart refused: ManualRestartBackoff is in effect until ${isoAt(availableAt)} (${Math.ceil((availableAt - now) / 1000)} s from now)`,
            { restartAvailableAtUtc: isoAt(availableAt) },
          );
        }
      }
      if (this.runtimeState === 'Starting' || this.runtimeState === 'Stopping') {
        throw new CoreError(
          'ENGINE_INVALID_STATE',
          `Cannot restart while the runtime is ${this.runtimeState}`,
        );
      }
      this.restartCount++;
      this.instruments.count('restarts');
      this.story.record({
        kind: 'restart',
        subjectId: null,
        transition: 'requested',
        message: `Restart ${this.restartCount} requested from state ${this.runtimeState}`,
        details: { restartCount: this.restartCount, fromState: this.runtimeState },
      });
      this.log(
        'info',
        engineEventIds.runtimeRestartRequested,
        `Restart requested (restart ${this.restartCount})`,
      );
      if (this.runtimeState === 'Started') await this.stopNow();
      await this.startNow();
    });
  }

  beginShutdown(): void {
    if (this.runtimeState !== 'Started' && this.runtimeState !== 'Starting') return;
    this.shutdownStartedAt = this.parts.clock.now();
    this.setState('Stopping', 'shutdown requested; readiness is Unhealthy while the drain runs');
    this.log('info', engineEventIds.runtimeStopping, 'Runtime stopping');
  }

  /** Runs every dependency contributor once now; resolves when all have settled. */
  refreshDependencies(): Promise<void> {
    return this.scheduler.refreshAll().then(() => this.publishHealthChanges());
  }

  liveness(): HealthReport {
    return this.measure((facts) => livenessVerdict(facts));
  }

  readiness(): HealthReport {
    return this.measure((facts) => readinessVerdict(facts));
  }

  health(): HealthReport {
    return this.measure((facts) => {
      const live = livenessVerdict(facts);
      const ready = readinessVerdict(facts);
      const worst = ready.status === 'Unhealthy' || live.status === 'Healthy' ? ready : live;
      return {
        ...worst,
        reasons: [...new Set([...live.reasons, ...ready.reasons])],
        window: ready.window ?? live.window,
      };
    });
  }

  dependencies(): readonly DependencyHealthEntry[] {
    return this.scheduler.entries();
  }

  status(): StatusDocument {
    const readiness = this.readiness();
    const liveness = this.liveness();
    return {
      state: this.runtimeState,
      liveness: liveness.status,
      readiness: readiness.status,
      startedAtUtc: this.startedAt === null ? null : isoAt(this.startedAt),
      restartCount: this.restartCount,
      lastFailure: this.lastFailure,
      restartAvailableAtUtc: readiness.restartAvailableAtUtc ?? null,
      activeWindow: readiness.activeWindow ?? liveness.activeWindow ?? null,
      activeWindowEndsAtUtc: readiness.activeWindowEndsAtUtc ?? liveness.activeWindowEndsAtUtc ?? null,
    };
  }

  diagnostics(healthRoutes: readonly string[] = []): DiagnosticsDocument {
    return {
      meterName,
      activitySourceName,
      counters: { ...counterNames },
      conventions: { ...diagnosticsConventions },
      eventIds: eventIdRanges,
      liveness: this.liveness(),
      readiness: this.readiness(),
      dependencies: this.dependencies(),
      healthRoutes: [...healthRoutes],
    };
  }

  runtimeStory(): RuntimeStoryDocument {
    return {
      status: this.runtimeState,
      restartCount: this.restartCount,
      lastFailure: this.lastFailure,
      packages: this.packages(),
      modules: this.moduleStates.map((module): ModuleLifecycle => ({
        moduleId: module.definition.id,
        version: module.definition.version,
        state: module.state,
        loadedAtUtc: module.loadedAt === null ? null : isoAt(module.loadedAt),
        initializedAtUtc: module.initializedAt === null ? null : isoAt(module.initializedAt),
        startedAtUtc: module.startedAt === null ? null : isoAt(module.startedAt),
        stoppedAtUtc: module.stoppedAt === null ? null : isoAt(module.stoppedAt),
      })),
      executions: this.executions.lifecycles(),
      timeline: this.story.timeline(),
      maxEntries: this.story.maxEntries,
      droppedEntries: this.story.droppedEntries,
    };
  }

  manifest(): ManifestDocument {
    return {
      engine: { name: '@corekit/engine-core', version: engineVersion },
      modules: this.moduleStates.map(({ definition: module, origin }) => ({
        id: module.id,
        version: module.version,
        displayName: module.displayName ?? module.id,
        capabilities: [...(module.capabilities ?? [])],
        origin,
      })),
    };
  }

  snapshot(): Record<string, unknown> {
    const snapshot: Record<string, unknown> = {
      generatedAtUtc: this.nowIso(),
      status: this.status(),
      manifest: this.manifest(),
      dependencies: this.dependencies(),
      packages: this.packages(),
      packagePolicy: this.packagePolicy(),
      trustPolicy: this.trustPolicy(),
      technologySurfaces: this.technologySurfaces(),
    };
    for (const view of this.catalogs()) snapshot[view.definition.snapshotField] = view.entries();
    return snapshot;
  }

  catalogs(): readonly CatalogView[] {
    return this.parts.catalogs.views();
  }

  catalog(id: string): CatalogView | undefined {
    return this.parts.catalogs.view(id);
  }

  packages(): readonly PackageRecord[] {
    return this.parts.packages.records();
  }

  packagePolicy(): Record<string, unknown> {
    return this.parts.packages.packagePolicyDocument();
  }

  trustPolicy(): Record<string, unknown> {
    return this.parts.packages.trustPolicyDocument();
  }

  technologySurfaces(): readonly TechnologySurface[] {
    return this.parts.technologySurfaces.flatMap((source) => source());
  }

  subscribe(listener: (event: RuntimeEvent) => void): () => void {
    if (this.listeners.size === 0) {
      // Baseline for health-changed events: the first change after the first subscriber joins is published.
      this.lastPublished = { liveness: this.liveness().status, readiness: this.readiness().status };
    }
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  extension<T>(key: string): T | undefined {
    return this.parts.extensions.get(key) as T | undefined;
  }

  private async startNow(): Promise<void> {
    if (this.runtimeState === 'Started') return;
    if (this.runtimeState === 'Starting' || this.runtimeState === 'Stopping') {
      throw new CoreError('ENGINE_INVALID_STATE', `Cannot start while the runtime is ${this.runtimeState}`);
    }
    this.lifecycleAbort = new AbortController();
    this.shutdownStartedAt = null;
    this.startedAt = null;
    this.setState('Starting', 'startup begins');
    this.log(
      'info',
      engineEventIds.runtimeStarting,
      `Runtime starting (${this.parts.modules.length} modules)`,
    );
    let phase = 'package-discovery';
    let current: ModuleState | null = null;
    try {
      for (const loaded of await this.parts.packages.load((entry) => this.story.record(entry))) {
        if (!this.moduleStates.some((module) => module.definition === loaded.definition))
          this.addModule(loaded.definition, 'package', loaded.packageId);
      }
      phase = 'module-initialize';
      const dependenciesChecked = this.scheduler.start();
      for (const module of this.moduleStates) {
        current = module;
        await module.definition.initialize?.(this.moduleContext(module.definition));
        this.moduleTransition(module, 'initialized');
      }
      phase = 'module-start';
      for (const module of this.moduleStates) {
        current = module;
        await module.definition.start?.(this.moduleContext(module.definition));
        this.moduleTransition(module, 'started');
      }
      current = null;
      phase = 'hosted-service-start';
      for (const service of this.parts.hostedServices) {
        await service.start(this.lifecycleAbort.signal);
        this.startedHostedServices.push(service);
        this.story.record({
          kind: 'hosted-service',
          subjectId: service.id,
          transition: 'started',
          message: `Hosted service ${service.id} started`,
        });
      }
      phase = 'hosted-execution-start';
      await this.executions.activate(this.lifecycleAbort.signal);
      phase = 'dependency-health';
      await dependenciesChecked;
      this.startedAt = this.parts.clock.now();
      this.setState('Started', 'startup completed');
      this.log('info', engineEventIds.runtimeStarted, 'Runtime started');
    } catch (error) {
      await this.fail(phase, current?.definition.id ?? null, error);
      throw new CoreError(
        'ENGINE_START_FAILED',
        `The runtime failed to start in phase ${phase}${current ? ` (module ${current.definition.id})` : ''}: ${this.parts.logger.redact(String((error as Error)?.message ?? error))}`,
        { phase, moduleId: current?.definition.id ?? null },
        { cause: error },
      );
    }
  }

  private async fail(phase: string, moduleId: string | null, error: unknown): Promise<void> {
    const now = this.parts.clock.now();
    const restartable = !(error instanceof CoreError && error.details.restartable === false);
    this.lastFailure = {
      phase,
      moduleId,
      code: errorCode(error, 'MODULE_FAILED'),
      message: this.parts.logger.redact(String((error as Error)?.message ?? error)),
      occurredAtUtc: isoAt(now),
      restartable,
    };
    this.failedAt = now;
    this.instruments.count('failures', { phase });
    this.story.record({
      kind: 'failure',
      subjectId: moduleId,
      transition: 'failed',
      message: `Startup failed in ${phase}${moduleId ? ` (module ${moduleId})` : ''}: ${this.lastFailure.message}`,
      details: { ...this.lastFailure },
    });
    await this.teardown();
    this.setState('Failed', `startup failed in ${phase}`);
    this.log(
      'error',
      engineEventIds.runtimeStartFailed,
      `Runtime failed to start: ${this.lastFailure.message}`,
      {
        phase,
        moduleId,
        errorCode: this.lastFailure.code,
      },
    );
  }

  private async stopNow(): Promise<void> {
    if (this.runtimeState === 'Created' || this.runtimeState === 'Stopped' || this.runtimeState === 'Failed')
      return;
    if (this.runtimeState !== 'Stopping') this.beginShutdown();
    await this.teardown();
    this.setState('Stopped', 'shutdown completed');
    this.log('info', engineEventIds.runtimeStopped, 'Runtime stopped');
  }

  /** Stops hosted services and started modules in reverse order; errors are recorded, never thrown. */
  private async teardown(): Promise<void> {
    this.lifecycleAbort.abort();
    this.scheduler.stop();
    await this.executions.deactivate((id, error) => this.recordStopError('hosted-service', id, error));
    for (const service of this.startedHostedServices.splice(0).reverse()) {
      try {
        await service.stop();
        this.story.record({
          kind: 'hosted-service',
          subjectId: service.id,
          transition: 'stopped',
          message: `Hosted service ${service.id} stopped`,
        });
      } catch (error) {
        this.recordStopError('hosted-service', service.id, error);
      }
    }
    for (const module of [...this.moduleStates].reverse()) {
      if (module.state !== 'started' && module.state !== 'initialized') continue;
      try {
        await module.definition.stop?.(this.moduleContext(module.definition));
      } catch (error) {
        this.recordStopError('module', module.definition.id, error);
      }
      this.moduleTransition(module, 'stopped');
    }
  }

  private recordStopError(kind: 'module' | 'hosted-service', id: string, error: unknown): void {
    const message = this.parts.logger.redact(String((error as Error)?.message ?? error));
    this.story.record({
      kind,
      subjectId: id,
      transition: 'stop-failed',
      message: `${id} failed to stop: ${message}`,
    });
    this.log('error', engineEventIds.runtimeStopping, `${id} failed to stop: ${message}`);
  }

  private addModule(definition: ModuleDefinition, origin: 'code' | 'package', packageId?: string): void {
    const module: ModuleState = {
      definition,
      origin,
      state: 'loaded',
      loadedAt: this.parts.clock.now(),
      initializedAt: null,
      startedAt: null,
      stoppedAt: null,
    };
    this.moduleStates.push(module);
    this.story.record({
      kind: 'module',
      subjectId: definition.id,
      transition: 'loaded',
      message: `Module ${definition.id} ${definition.version} loaded${packageId ? ` from package ${packageId}` : ''}`,
      details: { version: definition.version, origin, ...(packageId ? { packageId } : {}) },
    });
    this.instruments.count('moduleTransitions', { transition: 'loaded', subject_id: definition.id });
  }

  private moduleTransition(module: ModuleState, transition: 'initialized' | 'started' | 'stopped'): void {
    const now = this.parts.clock.now();
    module.state = transition;
    if (transition === 'initialized') module.initializedAt = now;
    if (transition === 'started') module.startedAt = now;
    if (transition === 'stopped') module.stoppedAt = now;
    this.story.record({
      kind: 'module',
      subjectId: module.definition.id,
      transition,
      message: `Module ${module.definition.id} ${transition}`,
    });
    this.instruments.count('moduleTransitions', { transition, subject_id: module.definition.id });
  }

  private setState(next: RuntimeState, reason: string): void {
    const previous = this.runtimeState;
    this.runtimeState = next;
    this.story.record({
      kind: 'runtime',
      subjectId: null,
      transition: next.toLowerCase(),
      message: `Runtime ${previous} -> ${next}: ${reason}`,
      details: { from: previous, to: next },
    });
    this.instruments.count('runtimeTransitions', { transition: next });
    this.publishHealthChanges();
  }

  private publishHealthChanges(): void {
    if (this.listeners.size === 0) {
      this.lastPublished = { liveness: null, readiness: null };
      return;
    }
    for (const probe of ['liveness', 'readiness'] as const) {
      const status = (probe === 'liveness' ? this.liveness() : this.readiness()).status;
      const previous = this.lastPublished[probe];
      if (previous !== null && previous !== status) {
        this.emit({ type: 'health-changed', probe, status, previous, atUtc: this.nowIso() });
      }
      this.lastPublished[probe] = status;
    }
  }

  private measure(verdictOf: (facts: LifecycleFacts) => Parameters<typeof toReport>[0]): HealthReport {
    const started = performance.now();
    const facts = this.facts();
    const verdict = verdictOf(facts);
    return toReport(verdict, facts, facts.now, Math.round((performance.now() - started) * 1000) / 1000);
  }

  private facts(): LifecycleFacts {
    return {
      state: this.runtimeState,
      now: this.parts.clock.now(),
      startedAt: this.startedAt,
      shutdownStartedAt: this.shutdownStartedAt,
      failedAt: this.runtimeState === 'Failed' ? this.failedAt : null,
      restartCount: this.restartCount,
      lastFailure: this.lastFailure,
      policy: this.parts.failurePolicy,
      dependencies: this.scheduler.entries(),
    };
  }

  private moduleContext(module: ModuleDefinition) {
    return {
      moduleId: module.id,
      configuration: this.parts.configuration,
      logger: this.parts.logger,
      signal: this.lifecycleAbort.signal,
    };
  }

  private emit(event: RuntimeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not break the runtime; transports remove their own listeners on close.
      }
    }
  }

  private log(
    level: 'info' | 'warn' | 'error',
    eventId: number,
    message: string,
    fields: Record<string, unknown> = {},
  ): void {
    this.parts.logger.log({
      level,
      eventId,
      category: 'engine',
      message,
      state: this.runtimeState,
      ...fields,
    });
  }

  private nowIso(): string {
    return isoAt(this.parts.clock.now());
  }

  private serialize(work: () => Promise<void>): Promise<void> {
    const next = this.transition.then(work, work);
    this.transition = next.catch(() => undefined);
    return next;
  }
}
