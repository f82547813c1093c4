import type {
  ManifestDocument,
  ModuleContext,
  ModuleDefinition,
  ModuleLifecycle,
  RuntimeStoryWriter,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';
import type { EngineInstruments } from '../diagnostics';

interface ModuleState {
  readonly definition: ModuleDefinition;
  readonly origin: 'code' | 'package';
  state: string;
  loadedAt: number | null;
  initializedAt: number | null;
  startedAt: number | null;
  stoppedAt: number | null;
}

type Transition = 'initialized' | 'started' | 'stopped';

/** The modules of an engine: loaded, initialized, started and stopped in order, each step in the story. */
export class ModuleLifecycles {
  private readonly states: ModuleState[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly story: RuntimeStoryWriter,
    private readonly instruments: EngineInstruments,
  ) {}

  get count(): number {
    return this.states.length;
  }

  has(definition: ModuleDefinition): boolean {
    return this.states.some((module) => module.definition === definition);
  }

  add(definition: ModuleDefinition, origin: 'code' | 'package', packageId?: string): void {
    this.states.push({
      definition,
      origin,
      state: 'loaded',
      loadedAt: this.clock.now(),
      initializedAt: null,
      startedAt: null,
      stoppedAt: null,
    });
    this.story.record({
      kind: 'module',
      subjectId: definition.id,
      transition: 'loaded',
      message: `Module ${definition.id} ${definition.version} loaded${packageId ? ` from package ${packageId}` : ''}`,
      details: { version: definition.version, origin, ...(packageId ? { packageId } : {}) },
    });
    this.instruments.count('moduleTransitions', { transition: 'loaded', subject_id: definition.id });
  }

  /**
   * Runs `initialize` then `start` of every module in order; `onCurrent` names the module in progress so a
   * failure can say which. Throws what the module threw.
   */
  async startAll(
    contextOf: (definition: ModuleDefinition) => ModuleContext,
    onPhase: (phase: 'module-initialize' | 'module-start', moduleId: string | null) => void,
  ): Promise<void> {
    for (const module of this.states) {
      onPhase('module-initialize', module.definition.id);
      await module.definition.initialize?.(contextOf(module.definition));
      this.transition(module, 'initialized');
    }
    for (const module of this.states) {
      onPhase('module-start', module.definition.id);
      await module.definition.start?.(contextOf(module.definition));
      this.transition(module, 'started');
    }
    onPhase('module-start', null);
  }

  /** Stops started or initialized modules in reverse order; a failing stop is reported, never thrown. */
  async stopAll(
    contextOf: (definition: ModuleDefinition) => ModuleContext,
    onError: (moduleId: string, error: unknown) => void,
  ): Promise<void> {
    for (const module of [...this.states].reverse()) {
      if (module.state !== 'started' && module.state !== 'initialized') continue;
      try {
        await module.definition.stop?.(contextOf(module.definition));
      } catch (error) {
        onError(module.definition.id, error);
      }
      this.transition(module, 'stopped');
    }
  }

  lifecycles(): ModuleLifecycle[] {
    const at = (value: number | null) => (value === null ? null : isoAt(value));
    return this.states.map((module) => ({
      moduleId: module.definition.id,
      version: module.definition.version,
      state: module.state,
      loadedAtUtc: at(module.loadedAt),
      initializedAtUtc: at(module.initializedAt),
      startedAtUtc: at(module.startedAt),
      stoppedAtUtc: at(module.stoppedAt),
    }));
  }

  manifestModules(): ManifestDocument['modules'] {
    return this.states.map(({ definition, origin }) => ({
      id: definition.id,
      version: definition.version,
      displayName: definition.displayName ?? definition.id,
      capabilities: [...(definition.capabilities ?? [])],
      origin,
    }));
  }

  private transition(module: ModuleState, transition: Transition): void {
    const now = this.clock.now();
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
}
