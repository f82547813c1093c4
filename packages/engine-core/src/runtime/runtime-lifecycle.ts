import {
  CoreError,
  engineEventIds,
  type HostedService,
  type LifecycleHooks,
  type ModuleContext,
  type ModuleDefinition,
  type StartFailureOptions,
  type ExtensionResolver,
  type ConfigurationReader,
} from '@corekit/abstractions';
import { isoAt } from '../clock';
import type { DependencyHealthScheduler } from '../dependency-health-scheduler';
import type { FailurePolicy, ShutdownOptions, StartupOptions } from '../engine-options';
import type { ExecutionLifecycleTracker } from '../execution-lifecycle';
import type { ModulePackages } from '../packages/module-packages';
import type { ModuleLifecycles } from './module-lifecycle';
import { LifecycleRecords, type LifecycleRecordParts } from './lifecycle-records';
import { PackHooks } from './pack-hooks';
import { boundedStart, isStartTimeout, StartProgress } from './start-progress';

/** Background work the lifecycle starts after the modules and stops first. */
export interface BackgroundWork {
  start(): void;
  /** Aborts running work and waits for it at most `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
}

/** What the lifecycle drives; what it records to comes from LifecycleRecordParts. */
export interface RuntimeLifecycleParts extends LifecycleRecordParts {
  readonly configuration: ConfigurationReader;
  readonly modules: ModuleLifecycles;
  readonly packages: ModulePackages;
  readonly dependencies: DependencyHealthScheduler;
  readonly hostedServices: readonly HostedService[];
  readonly executions: ExecutionLifecycleTracker;
  readonly jobs: BackgroundWork;
  readonly hooks: readonly LifecycleHooks[];
  readonly failurePolicy: FailurePolicy;
  /** `Engine:Shutdown`: the bounds of the stopping hooks and the job wait. */
  readonly shutdown: ShutdownOptions;
  /** `Engine:Startup`: the bound of a start (0: none). */
  readonly startup: StartupOptions;
  readonly extensions: ExtensionResolver;
  /** Checks done once, before the first start (strict configuration). */
  readonly beforeFirstStart: () => void;
  /** Called when package modules were loaded (operations of package modules). */
  readonly onModuleLoaded: (definition: ModuleDefinition, packageId: string) => void;
}

/** The runtime state machine: start, stop, restart and shutdown, serialized, each step in the story. */
export class RuntimeLifecycle {
  private readonly startedHostedServices: HostedService[] = [];
  private abort = new AbortController();
  private transition: Promise<void> = Promise.resolve();
  private firstStartChecked = false;
  /** The stopping hooks of the shutdown in progress (bounded by StoppingHooksTimeout); null when none runs. */
  private stoppingHooks: Promise<void> | null = null;

  private readonly records: LifecycleRecords;
  private readonly packHooks: PackHooks;

  constructor(private readonly parts: RuntimeLifecycleParts) {
    this.records = new LifecycleRecords(parts);
    this.packHooks = new PackHooks({
      hooks: parts.hooks,
      extensions: parts.extensions,
      records: this.records,
      shutdown: parts.shutdown,
      state: () => parts.state.state,
    });
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  start(): Promise<void> {
    return this.serialize(() => this.startNow());
  }

  stop(): Promise<void> {
    return this.serialize(() => this.stopNow());
  }

  restart(): Promise<void> {
    return this.serialize(async () => {
      const { state: lifecycle, clock, failurePolicy } = this.parts;
      const now = clock.now();
      this.records.assertRestartable('restart');
      if (lifecycle.state === 'Failed' && lifecycle.failedAt !== null) {
        const availableAt = lifecycle.failedAt + failurePolicy.ManualRestartBackoff;
        if (now < availableAt) {
          throw new CoreError(
            'ENGINE_RESTART_BACKOFF',
            `Restart refused: ManualRestartBackoff is in effect until ${isoAt(availableAt)} (${Math.ceil((availableAt - now) / 1000)} s from now)`,
            { restartAvailableAtUtc: isoAt(availableAt) },
          );
        }
      }
      if (lifecycle.state === 'Starting' || lifecycle.state === 'Stopping') {
        throw new CoreError('ENGINE_INVALID_STATE', `Cannot restart while the runtime is ${lifecycle.state}`);
      }
      lifecycle.restartCount++;
      this.parts.instruments.count('restarts');
      this.parts.story.record({
        kind: 'restart',
        subjectId: null,
        transition: 'requested',
        message: `Restart ${lifecycle.restartCount} requested from state ${lifecycle.state}`,
        details: { restartCount: lifecycle.restartCount, fromState: lifecycle.state },
      });
      this.records.log(
        'info',
        engineEventIds.runtimeRestartRequested,
        `Restart requested (restart ${lifecycle.restartCount})`,
      );
      if (lifecycle.state === 'Started') {
        void this.beginShutdown(true);
        await this.stopNow();
      }
      await this.startNow(true);
    });
  }

  /**
   * The first step of every stop: the state turns Stopping (readiness Unhealthy, operations refused), then the
   * packs' `stopping` hooks run in registration order, with the signal not yet aborted and jobs still running.
   * Resolves once every hook has finished or `Engine:Shutdown:StoppingHooksTimeout` ran out; `stop()` awaits
   * the same promise. `restarting`: the stop is the first half of `restart()` (the hooks are told).
   */
  beginShutdown(restarting = false): Promise<void> {
    if (this.stoppingHooks) return this.stoppingHooks;
    const lifecycle = this.parts.state;
    if (lifecycle.state !== 'Started' && lifecycle.state !== 'Starting') return Promise.resolve();
    lifecycle.shutdownStartedAt = this.parts.clock.now();
    this.records.setState('Stopping', 'shutdown requested; readiness is Unhealthy while the drain runs');
    this.records.log('info', engineEventIds.runtimeStopping, 'Runtime stopping');
    this.stoppingHooks = this.packHooks.stopping(this.abort.signal, restarting);
    return this.stoppingHooks;
  }

  moduleContext(definition: ModuleDefinition): ModuleContext {
    return {
      moduleId: definition.id,
      configuration: this.parts.configuration,
      logger: this.parts.logger,
      signal: this.abort.signal,
    };
  }

  /**
   * Records a failure found outside the start steps (strict configuration, a host's own section or listener):
   * Failed, `lastFailure`, a story entry and the error log. Nothing had started, so nothing is torn down.
   * Refused while a start, a run or a stop is in progress.
   */
  recordStartFailure(phase: string, error: unknown, options: StartFailureOptions = {}): void {
    const state = this.parts.state.state;
    if (state === 'Starting' || state === 'Started' || state === 'Stopping') {
      throw new CoreError(
        'ENGINE_INVALID_STATE',
        `A start failure cannot be recorded while the runtime is ${state}`,
      );
    }
    this.records.failure(phase, options.moduleId ?? null, error, options.restartable);
    this.records.setState('Failed', `startup failed in ${phase}`);
    this.records.logFailure();
  }

  private async startNow(restarting = false): Promise<void> {
    const { state: lifecycle, modules } = this.parts;
    if (lifecycle.state === 'Started') return;
    if (lifecycle.state === 'Starting' || lifecycle.state === 'Stopping') {
      throw new CoreError('ENGINE_INVALID_STATE', `Cannot start while the runtime is ${lifecycle.state}`);
    }
    this.records.assertRestartable(restarting ? 'restart' : 'start');
    if (!this.firstStartChecked) {
      try {
        this.parts.beforeFirstStart();
      } catch (error) {
        this.recordStartFailure('configuration', error, { restartable: false });
        throw error;
      }
      this.firstStartChecked = true;
    }
    this.abort = new AbortController();
    this.stoppingHooks = null;
    lifecycle.shutdownStartedAt = null;
    lifecycle.startedAt = null;
    this.records.setState('Starting', 'startup begins');
    this.records.log('info', engineEventIds.runtimeStarting, `Runtime starting (${modules.count} modules)`);
    const progress = new StartProgress();
    try {
      await boundedStart(this.startSteps(restarting, progress), progress, this.parts.startup.Timeout, () =>
        this.abort.abort(),
      );
      lifecycle.startedAt = this.parts.clock.now();
      this.records.setState('Started', 'startup completed');
      this.records.log('info', engineEventIds.runtimeStarted, 'Runtime started');
    } catch (error) {
      const { phase, moduleId } = progress;
      await this.fail(phase, moduleId, error);
      if (isStartTimeout(error)) throw error;
      throw new CoreError(
        'ENGINE_START_FAILED',
        `The runtime failed to start in phase ${phase}${moduleId ? ` (module ${moduleId})` : ''}: ${this.records.redacted(error)}`,
        { phase, moduleId },
        { cause: error },
      );
    }
  }

  /**
   * Every step from Starting to Started; `progress` names the phase and module in progress. Once the start was
   * abandoned (the startup timeout ran out), the next step refuses to run, so nothing starts after Failed.
   */
  private async startSteps(restarting: boolean, progress: StartProgress): Promise<void> {
    const { modules } = this.parts;
    const enter = (phase: string, moduleId: string | null = null) => progress.enter(phase, moduleId);
    enter('pack-starting');
    await this.packHooks.run('starting', this.abort.signal, { rethrow: true, restarting });
    enter('package-discovery');
    for (const loaded of await this.parts.packages.load((entry) => this.parts.story.record(entry))) {
      if (!modules.has(loaded.definition)) {
        modules.add(loaded.definition, 'package', loaded.packageId);
        this.parts.onModuleLoaded(loaded.definition, loaded.packageId);
      }
    }
    enter('module-initialize');
    const dependenciesChecked = this.parts.dependencies.start();
    await modules.startAll(
      (definition) => this.moduleContext(definition),
      (next, moduleId) => enter(next, moduleId),
    );
    enter('hosted-service-start');
    for (const service of this.parts.hostedServices) {
      await service.start(this.abort.signal);
      enter('hosted-service-start');
      this.startedHostedServices.push(service);
      this.parts.story.record({
        kind: 'hosted-service',
        subjectId: service.id,
        transition: 'started',
        message: `Hosted service ${service.id} started`,
      });
    }
    enter('hosted-execution-start');
    await this.parts.executions.activate(this.abort.signal);
    enter('dependency-health');
    await dependenciesChecked;
    enter('pack-started');
    await this.packHooks.run('started', this.abort.signal, { rethrow: true, restarting });
    enter('pack-started');
    this.parts.jobs.start();
  }

  /** Records the failure, then releases what the start opened: stopping hooks, then teardown; then Failed. */
  private async fail(phase: string, moduleId: string | null, error: unknown): Promise<void> {
    this.records.failure(phase, moduleId, error);
    // The packs release what they opened for this start (their `started` may have run for some of them).
    await (this.stoppingHooks ?? this.packHooks.stopping(this.abort.signal, false));
    await this.teardown();
    this.records.setState('Failed', `startup failed in ${phase}`);
    this.records.logFailure();
  }

  private async stopNow(): Promise<void> {
    const state = this.parts.state.state;
    if (state === 'Created' || state === 'Stopped' || state === 'Failed') return;
    await this.beginShutdown();
    await this.teardown();
    this.stoppingHooks = null;
    this.records.setState('Stopped', 'shutdown completed');
    this.records.log('info', engineEventIds.runtimeStopped, 'Runtime stopped');
  }

  /**
   * After the stopping hooks: stops jobs (their signals aborted, waited at most JobStopTimeout), then aborts the
   * engine signal and stops dependency checks, hosted executions, hosted services and modules in reverse order;
   * errors are recorded, never thrown.
   */
  private async teardown(): Promise<void> {
    await this.parts.jobs.stop(this.parts.shutdown.JobStopTimeout);
    this.abort.abort();
    this.parts.dependencies.stop();
    await this.parts.executions.deactivate((id, error) =>
      this.records.stopError('hosted-service', id, error),
    );
    for (const service of this.startedHostedServices.splice(0).reverse()) {
      try {
        await service.stop();
        this.parts.story.record({
          kind: 'hosted-service',
          subjectId: service.id,
          transition: 'stopped',
          message: `Hosted service ${service.id} stopped`,
        });
      } catch (error) {
        this.records.stopError('hosted-service', service.id, error);
      }
    }
    await this.parts.modules.stopAll(
      (definition) => this.moduleContext(definition),
      (moduleId, error) => this.records.stopError('module', moduleId, error),
    );
  }

  private serialize(work: () => Promise<void>): Promise<void> {
    const next = this.transition.then(work, work);
    this.transition = next.catch(() => undefined);
    return next;
  }
}
