import type {
  ExecutionGraphDescriptor,
  ExecutionLifecycle,
  HostedExecutionDescriptor,
  HostedService,
  RuntimeStoryEntry,
} from '@corekit/abstractions';
import { isoAt, type Clock } from './clock';
import type { CounterKey } from './diagnostics';

/**
 * `declared-only`: the hosted execution starts with the host but no runner (hosted service with its id) is
 * registered, so nothing executes it; it is never reported `active`.
 */
export type ExecutionState = 'loaded' | 'active' | 'declared-only' | 'deactivated';

interface Tracked {
  readonly id: string;
  readonly kind: 'execution-graph' | 'hosted-execution';
  state: ExecutionState;
  loadedAt: number;
  activeAt: number | null;
  deactivatedAt: number | null;
}

export interface ExecutionLifecycleHooks {
  record(entry: Omit<RuntimeStoryEntry, 'sequence' | 'atUtc'>): void;
  count(key: CounterKey, attributes: Record<string, string>): void;
}

/**
 * Lifecycle of the execution graphs and hosted executions: loaded at build, active while the host runs,
 * deactivated on stop. A hosted execution with startsWithHost is started and stopped by the engine, through
 * the hosted service registered under the same id (its runner); without a runner it is `declared-only` while
 * the host runs (nothing executes it) and stays so after stop, having never run. The tracker cannot tell whether a
 * runner keeps working after its start resolved: `active` means started, not healthy.
 */
export class ExecutionLifecycleTracker {
  private readonly tracked = new Map<string, Tracked>();
  private readonly runningRunners: HostedService[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly graphs: readonly ExecutionGraphDescriptor[],
    private readonly executions: readonly HostedExecutionDescriptor[],
    private readonly runners: ReadonlyMap<string, HostedService>,
    private readonly hooks: ExecutionLifecycleHooks,
  ) {
    for (const graph of graphs) this.track(graph.id, 'execution-graph');
    for (const execution of executions) this.track(execution.id, 'hosted-execution');
  }

  /** Ids of hosted services that are execution runners (the engine must not start them on their own). */
  static runnerIds(executions: readonly HostedExecutionDescriptor[]): Set<string> {
    return new Set(executions.map((execution) => execution.id));
  }

  async activate(signal: AbortSignal): Promise<void> {
    for (const graph of this.graphs)
      this.transition('execution-graph', graph.id, 'active', `Execution graph ${graph.id} active`);
    for (const execution of this.executions) {
      if (!execution.startsWithHost) continue;
      const runner = this.runners.get(execution.id);
      if (!runner) {
        this.transition(
          'hosted-execution',
          execution.id,
          'declared-only',
          `Hosted execution ${execution.id} starts with the host but no runner is registered: declared only, nothing executes it`,
        );
        continue;
      }
      await runner.start(signal);
      this.runningRunners.push(runner);
      this.transition(
        'hosted-execution',
        execution.id,
        'active',
        `Hosted execution ${execution.id} started with the host`,
      );
    }
  }

  async deactivate(onError: (id: string, error: unknown) => void): Promise<void> {
    for (const runner of this.runningRunners.splice(0).reverse()) {
      try {
        await runner.stop();
      } catch (error) {
        onError(runner.id, error);
      }
    }
    for (const item of [...this.tracked.values()].reverse()) {
      if (item.state === 'active') {
        this.transition(
          item.kind,
          item.id,
          'deactivated',
          `${item.kind === 'execution-graph' ? 'Execution graph' : 'Hosted execution'} ${item.id} deactivated`,
        );
      }
    }
  }

  lifecycles(): ExecutionLifecycle[] {
    return [...this.tracked.values()].map((item) => ({
      id: item.id,
      kind: item.kind,
      state: item.state,
      loadedAtUtc: isoAt(item.loadedAt),
      activeAtUtc: item.activeAt === null ? null : isoAt(item.activeAt),
      deactivatedAtUtc: item.deactivatedAt === null ? null : isoAt(item.deactivatedAt),
    }));
  }

  private track(id: string, kind: Tracked['kind']): void {
    this.tracked.set(`${kind}:${id}`, {
      id,
      kind,
      state: 'loaded',
      loadedAt: this.clock.now(),
      activeAt: null,
      deactivatedAt: null,
    });
    this.hooks.record({
      kind,
      subjectId: id,
      transition: 'loaded',
      message: `${kind === 'execution-graph' ? 'Execution graph' : 'Hosted execution'} ${id} loaded`,
    });
    this.hooks.count(
      kind === 'execution-graph' ? 'executionGraphTransitions' : 'hostedExecutionTransitions',
      { transition: 'loaded', subject_id: id },
    );
  }

  private transition(
    kind: Tracked['kind'],
    id: string,
    state: Exclude<ExecutionState, 'loaded'>,
    message: string,
  ): void {
    const item = this.tracked.get(`${kind}:${id}`)!;
    item.state = state;
    if (state === 'active') {
      item.activeAt = this.clock.now();
      item.deactivatedAt = null;
    } else if (state === 'deactivated') {
      item.deactivatedAt = this.clock.now();
    }
    this.hooks.record({ kind, subjectId: id, transition: state, message });
    this.hooks.count(
      kind === 'execution-graph' ? 'executionGraphTransitions' : 'hostedExecutionTransitions',
      { transition: state, subject_id: id },
    );
  }
}
