import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Engine, EngineBuilder } from '@corekit/abstractions';
import { countActiveResources, waitForResourcesAtMost } from './active-resources';
import { startFixture } from './child-process';
import { pollUntil } from './poll-until';
import { createTestEngineBuilder } from './test-engine-builder';

/** The checks of the pack lifecycle conformance suite, by name (for `pending`). */
export type PackLifecycleCheck =
  | 'restart'
  | 'restart-in-flight'
  | 'graceful-stop'
  | 'process-restart'
  | 'sigkill'
  | 'failed-start-module'
  | 'failed-start-pack'
  | 'restart-after-failed-start';

/** What an executor of the pack did for one unit of work, in one engine of one process. */
export interface WorkJournalEntry {
  readonly id: string;
  /** `entered` when an executor began the work, `done` when it completed it, `failed` when it failed on its own. */
  readonly event: 'entered' | 'done' | 'failed';
  /** The engine (one per build) the executor ran in; engines of a child process count from 1000. */
  readonly engine: number;
  readonly pid: number;
}

/**
 * What the adapter's code sees of the suite: where the File store lives, which engine this is, and the work
 * journal its executors write to. The journal is a file, so a child process and every engine of one test
 * share it: it is the record of what the pack actually did, independent of the pack's own surfaces.
 */
export interface PackLifecycleEnvironment {
  /** The folder of the File store (the suite configures `Engine:Stores` in the durable steps), unique per test. */
  readonly directory: string;
  /** This engine's number within the test (a restart keeps it; a new build, like a new process, does not). */
  readonly engine: number;
  /** True when this engine runs on the durable store (File, or the adapter's `durableStores`). */
  readonly durable: boolean;
  record(id: string, event: WorkJournalEntry['event']): void;
  /**
   * Resolves at once unless the suite holds `id` in flight, then when the suite releases it; rejects when
   * `signal` aborts first. Executors call it between `entered` and `done`.
   */
  hold(id: string, signal?: AbortSignal): Promise<void>;
  /**
   * The usual executor body: records `entered`, waits on `hold`, records `done`. An abort while held rejects
   * (nothing recorded): the pack sees its executor interrupted.
   */
  perform(id: string, signal?: AbortSignal): Promise<void>;
  entries(): readonly WorkJournalEntry[];
  /** Entries of `id` (and `event`), of every engine unless `engine` is given. */
  count(id: string, event?: WorkJournalEntry['event'], engine?: number): number;
}

/**
 * A host that serves the pack (a web host mounting transports) in place of a bare engine: the suite starts
 * and closes it instead of calling `engine.start()` and `engine.stop()` (steps still stop and restart the
 * engine itself).
 */
export interface PackLifecycleHost {
  readonly engine: Engine;
  /** Starts the engine the host's way (listening first); rejects with the start's error when it failed. */
  start(): Promise<void>;
  /** Stops the engine and closes everything the host opened (idempotent). */
  close(): Promise<void>;
}

/** How the suite drives one pack. */
export interface PackLifecycleAdapter {
  /** The pack (and provider) under test, in test titles: `eventing (memory outbox)`. */
  readonly pack: string;
  /**
   * Registers the pack and what it needs (modules, collections, executors calling `environment.perform`) on
   * a fresh builder. Called for every engine the suite builds, in this process or in the child process.
   */
  register(builder: EngineBuilder, environment: PackLifecycleEnvironment): void;
  /**
   * Wraps each built engine's builder in a host (`createWebHost`) when the pack serves only through one (a
   * transport): called after `register`, instead of `builder.build()`.
   */
  host?(builder: EngineBuilder, environment: PackLifecycleEnvironment): PackLifecycleHost;
  /** Code configuration for every engine (short leases and intervals); `Engine:Stores` is the suite's. */
  readonly configuration?: Record<string, unknown>;
  /**
   * The `Engine:Stores` section of the durable steps, for a store provider under test that `register` installs
   * (`addPostgresStores`): durable state then lives where it says, keyed by `directory` (unique per test) for
   * a table or key prefix of its own. Default: the File store in `directory`.
   */
  durableStores?(directory: string): Record<string, unknown>;
  /** Hands the pack one unit of work `id` (publish, reindex, start a run); resolves once it was accepted. */
  work(engine: Engine, id: string, environment: PackLifecycleEnvironment): Promise<void>;
  /** True once work `id` happened, judged outside the pack's surfaces. Default: a `done` journal entry. */
  happened?(engine: Engine, id: string, environment: PackLifecycleEnvironment): Promise<boolean>;
  /** What the pack's surfaces say now (readiness, counts, freshness), keyed like `facts`. */
  claims(engine: Engine, environment: PackLifecycleEnvironment): Promise<Record<string, unknown>>;
  /** What is actually true now, measured by doing (a query) or from the journal; compared with `claims`. */
  facts(engine: Engine, environment: PackLifecycleEnvironment): Promise<Record<string, unknown>>;
  /**
   * The pack stages work and performs it later (an outbox, a retry queue): work in flight at a stop or a
   * SIGKILL must then be performed after the next start on the File store. Without it, work in flight may be
   * lost, but the surfaces must still agree with the facts.
   */
  readonly staged?: boolean;
  /** Time allowed for work to happen after a start (a lease to expire after a SIGKILL). Default 10 000 ms. */
  readonly workTimeoutMs?: number;
  /**
   * The child-process fixture of the SIGKILL check: `<packageDirectory>/src/test-fixtures/<fixture>` calling
   * `runPackLifecycleFixture(adapter)` (the package depends on tsx). Without it the check is not declared.
   */
  readonly processFixture?: { readonly packageDirectory: string; readonly fixture: string };
  /**
   * A failed start ends the process the host's way (a web host that owns the process closes its listener and
   * exits): there is nothing left for `engine.restart()` to bring back, so `restart-after-failed-start` runs
   * on `embeddedHost`, or is not declared without one.
   */
  readonly failedStartEndsProcess?: boolean;
  /**
   * With `failedStartEndsProcess`: the same host as an application embedding it runs it (it keeps its listener
   * after a failed start and `start` rejects with the engine's failure). `restart-after-failed-start` then runs
   * on it: after `engine.restart()` the pack must serve through the host that stayed up.
   */
  embeddedHost?(builder: EngineBuilder, environment: PackLifecycleEnvironment): PackLifecycleHost;
  /**
   * Checks known to fail until a named change lands elsewhere (the engine), each with the reason. They run
   * as `it.failing`: the test run goes red the day they pass, so the mark cannot outlive the fix.
   */
  readonly pending?: Partial<Record<PackLifecycleCheck, string>>;
}

const fixtureVariables = {
  directory: 'PACK_LIFECYCLE_DIRECTORY',
  journal: 'PACK_LIFECYCLE_JOURNAL',
  work: 'PACK_LIFECYCLE_WORK',
} as const;

/** Work ids the suite holds in flight: in this process a gate, in a child process forever. */
class Gates {
  private readonly gates = new Map<string, { promise: Promise<void>; release: () => void }>();

  constructor(private readonly forever: ReadonlySet<string> = new Set()) {}

  hold(id: string): void {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.gates.set(id, { promise, release });
  }

  release(id: string): void {
    this.gates.get(id)?.release();
    this.gates.delete(id);
  }

  wait(id: string, signal?: AbortSignal): Promise<void> {
    const gate = this.gates.get(id)?.promise ?? (this.forever.has(id) ? new Promise<void>(() => {}) : null);
    if (!gate) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const abort = () => reject(new Error(`work ${id} was aborted while held in flight`));
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      void gate.then(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      });
    });
  }
}

function readJournal(file: string): WorkJournalEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as WorkJournalEntry);
}

function environmentOf(
  directory: string,
  journal: string,
  engine: number,
  durable: boolean,
  gates: Gates,
): PackLifecycleEnvironment {
  const environment: PackLifecycleEnvironment = {
    directory,
    engine,
    durable,
    record(id, event) {
      appendFileSync(journal, `${JSON.stringify({ id, event, engine, pid: process.pid })}\n`);
    },
    hold: (id, signal) => gates.wait(id, signal),
    async perform(id, signal) {
      environment.record(id, 'entered');
      await gates.wait(id, signal);
      environment.record(id, 'done');
    },
    entries: () => readJournal(journal),
    count: (id, event, onEngine) =>
      readJournal(journal).filter(
        (entry) =>
          entry.id === id &&
          (event === undefined || entry.event === event) &&
          (onEngine === undefined || entry.engine === onEngine),
      ).length,
  };
  return environment;
}

function merge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] =
      isRecord(current) && isRecord(value) ? merge(current, value) : (value as Record<string, unknown>);
  }
  return merged;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface BuiltEngine {
  readonly engine: Engine;
  readonly environment: PackLifecycleEnvironment;
  readonly host?: PackLifecycleHost;
}

const startBuilt = (built: BuiltEngine) => (built.host ? built.host.start() : built.engine.start());
const closeBuilt = (built: BuiltEngine) => (built.host ? built.host.close() : built.engine.stop());

/** Builds engines for one adapter on one store folder and journal. */
function engineFactory(
  adapter: PackLifecycleAdapter,
  directory: string,
  journal: string,
  gates: Gates,
  firstEngine = 1,
) {
  let next = firstEngine;
  return (
    durable: boolean,
    extra?: (builder: EngineBuilder) => void,
    configuration: Record<string, unknown> = {},
    embedded = false,
  ): BuiltEngine => {
    const section = adapter.durableStores?.(directory) ?? { Provider: 'File', Directory: directory };
    const stores = durable ? { Engine: { Stores: section } } : {};
    const { builder } = createTestEngineBuilder({
      configuration: merge(merge(adapter.configuration ?? {}, stores), configuration),
    });
    const environment = environmentOf(directory, journal, next++, durable, gates);
    adapter.register(builder, environment);
    extra?.(builder);
    const host = (embedded ? adapter.embeddedHost : adapter.host)?.(builder, environment);
    return { engine: host?.engine ?? builder.build(), environment, host };
  };
}

/**
 * The child-process side of the SIGKILL check: builds the adapter's engine on the File store the parent
 * names, starts it, hands it the work the parent names (held in flight forever), prints
 * `pack-lifecycle in-flight <id>` once an executor entered it, and waits to be killed.
 */
export async function runPackLifecycleFixture(adapter: PackLifecycleAdapter): Promise<void> {
  const directory = process.env[fixtureVariables.directory]!;
  const journal = process.env[fixtureVariables.journal]!;
  const work = process.env[fixtureVariables.work]!;
  const build = engineFactory(adapter, directory, journal, new Gates(new Set([work])), 1000);
  const built = build(true);
  const { engine, environment } = built;
  await startBuilt(built);
  console.log('pack-lifecycle started');
  await adapter.work(engine, work, environment);
  await pollUntil(
    async () => environment.count(work, 'entered'),
    (count) => count > 0,
    { timeoutMs: 20_000, intervalMs: 20 },
  );
  console.log(`pack-lifecycle in-flight ${work}`);
  setInterval(() => undefined, 60_000);
}

/**
 * The pack lifecycle conformance suite (jest `describe`/`it`), run from a pack's tests with an adapter, in the
 * spirit of the probe conformance suite. With the real engine it checks, comparing at every step what the
 * pack's surfaces claim (`claims`) with what is actually true (`facts`):
 * - `restart`: work, `engine.restart()`, work again;
 * - `restart-in-flight`: `engine.restart()` while work is held in flight (released during the restart);
 * - `graceful-stop`: a stop with work in flight on the File store; the work is released during the stop (an
 *   engine that drains lets it finish, one that aborts interrupts it); nothing is counted that the executor
 *   did not do, and staged work is performed after the next start;
 * - `process-restart`: work on the File store, a new engine (a new process, as far as the pack can tell) on
 *   the same folder: the restored surfaces agree with what the pack can do, and it works;
 * - `sigkill`: a child process killed with SIGKILL while work is in flight, then a start on its File store;
 * - `failed-start-module` / `failed-start-pack`: a start that fails in a module (before the pack's `started`)
 *   or in a pack registered after it (after the pack's `started`) leaves no handle open and surfaces that
 *   agree with what the pack can do;
 * - `restart-after-failed-start`: a start that failed in a module (a restartable failure) followed by
 *   `engine.restart()`: the pack runs again, works, and its surfaces agree (with `failedStartEndsProcess`, on
 *   the adapter's `embeddedHost`; not declared without one).
 */
export function describePackLifecycleConformance(adapter: PackLifecycleAdapter): void {
  const timeoutMs = adapter.workTimeoutMs ?? 10_000;
  const check = (name: PackLifecycleCheck, title: string, body: () => Promise<void>) => {
    const reason = adapter.pending?.[name];
    if (reason) it.failing(`${title} [pending: ${reason}]`, body, timeoutMs * 4);
    else it(title, body, timeoutMs * 4);
  };

  describe(`${adapter.pack} pack lifecycle conformance`, () => {
    let folder: string;
    let gates: Gates;
    let build: ReturnType<typeof engineFactory>;
    const running: BuiltEngine[] = [];

    beforeEach(() => {
      folder = mkdtempSync(path.join(os.tmpdir(), 'pack-lifecycle-'));
      gates = new Gates();
      build = engineFactory(adapter, path.join(folder, 'stores'), path.join(folder, 'journal.jsonl'), gates);
    });
    afterEach(async () => {
      await Promise.all(running.splice(0).map((built) => closeBuilt(built).catch(() => undefined)));
      rmSync(folder, { recursive: true, force: true });
    });

    const start = async (durable: boolean): Promise<BuiltEngine> => {
      const built = build(durable);
      running.push(built);
      await startBuilt(built);
      return built;
    };
    const happened = (built: BuiltEngine, id: string) =>
      adapter.happened
        ? adapter.happened(built.engine, id, built.environment)
        : Promise.resolve(built.environment.count(id, 'done') > 0);
    const expectHappened = async (built: BuiltEngine, id: string) => {
      const seen = await pollUntil(
        () => happened(built, id),
        (done) => done,
        { timeoutMs, intervalMs: 25 },
      );
      expect({ work: id, happened: seen }).toEqual({ work: id, happened: true });
    };
    /** Claims and facts agree (claims may lag the work a little: polled until equal, then compared). */
    const expectAgreement = async (built: BuiltEngine, step: string) => {
      const read = async () => ({
        claims: await adapter.claims(built.engine, built.environment),
        facts: await adapter.facts(built.engine, built.environment),
      });
      const { claims, facts } = await pollUntil(
        read,
        (value) => JSON.stringify(value.claims) === JSON.stringify(value.facts),
        { timeoutMs: 3000, intervalMs: 25 },
      );
      expect({ step, ...claims }).toEqual({ step, ...facts });
    };

    check(
      'restart',
      'works, restarts with engine.restart(), works again; surfaces agree at each step',
      async () => {
        const built = await start(false);
        await expectAgreement(built, 'after start');
        await adapter.work(built.engine, 'restart-1', built.environment);
        await expectHappened(built, 'restart-1');
        await expectAgreement(built, 'after work');
        await built.engine.restart();
        await expectAgreement(built, 'after engine.restart()');
        await adapter.work(built.engine, 'restart-2', built.environment);
        await expectHappened(built, 'restart-2');
        await expectAgreement(built, 'after work following engine.restart()');
      },
    );

    check(
      'restart-in-flight',
      'engine.restart() with work in flight: surfaces agree with what the executors did; staged work is performed',
      async () => {
        const built = await start(false);
        gates.hold('restart-in-flight');
        await adapter.work(built.engine, 'restart-in-flight', built.environment);
        const entered = await pollUntil(
          async () => built.environment.count('restart-in-flight', 'entered'),
          (count) => count > 0,
          { timeoutMs, intervalMs: 10 },
        );
        expect({ work: 'restart-in-flight', entered: entered > 0 }).toEqual({
          work: 'restart-in-flight',
          entered: true,
        });
        const restarted = built.engine.restart();
        gates.release('restart-in-flight');
        await restarted;
        if (adapter.staged) await expectHappened(built, 'restart-in-flight');
        await expectAgreement(built, 'after engine.restart() with work in flight');
        await adapter.work(built.engine, 'after-restart-in-flight', built.environment);
        await expectHappened(built, 'after-restart-in-flight');
        await expectAgreement(built, 'after work following the restart');
      },
    );

    check(
      'graceful-stop',
      'a stop with work in flight loses nothing and counts nothing the executor did not do; staged work is performed after the next start on File',
      async () => {
        const first = await start(true);
        gates.hold('in-flight');
        await adapter.work(first.engine, 'in-flight', first.environment);
        const entered = await pollUntil(
          async () => first.environment.count('in-flight', 'entered'),
          (count) => count > 0,
          { timeoutMs, intervalMs: 10 },
        );
        expect({ work: 'in-flight', entered: entered > 0 }).toEqual({ work: 'in-flight', entered: true });
        const stopped = first.engine.stop();
        gates.release('in-flight');
        await stopped;
        const second = await start(true);
        await expectAgreement(second, 'after the next start');
        if (adapter.staged) await expectHappened(second, 'in-flight');
        await expectAgreement(second, 'after the staged work settled');
        await adapter.work(second.engine, 'after-stop', second.environment);
        await expectHappened(second, 'after-stop');
        await expectAgreement(second, 'after new work');
      },
    );

    check(
      'process-restart',
      'after a process restart on the File store the restored surfaces agree with what the pack can do, and it works',
      async () => {
        const first = await start(true);
        await adapter.work(first.engine, 'before-restart', first.environment);
        await expectHappened(first, 'before-restart');
        await expectAgreement(first, 'before the restart');
        await first.engine.stop();
        const second = await start(true);
        await expectAgreement(second, 'after the restart');
        await adapter.work(second.engine, 'after-restart', second.environment);
        await expectHappened(second, 'after-restart');
        await expectAgreement(second, 'after work following the restart');
      },
    );

    if (adapter.processFixture) {
      const fixture = adapter.processFixture;
      check(
        'sigkill',
        'after a SIGKILL mid-work the next start on its File store agrees with what the pack can do; staged work is performed',
        async () => {
          const child = startFixture(fixture.packageDirectory, fixture.fixture, {
            [fixtureVariables.directory]: path.join(folder, 'stores'),
            [fixtureVariables.journal]: path.join(folder, 'journal.jsonl'),
            [fixtureVariables.work]: 'killed',
          });
          try {
            await child.waitForLine('pack-lifecycle in-flight killed', 60_000);
          } finally {
            child.child.kill('SIGKILL');
            await child.exited;
          }
          const next = await start(true);
          await expectAgreement(next, 'after the start following SIGKILL');
          if (adapter.staged) {
            await expectHappened(next, 'killed');
            await expectAgreement(next, 'after the killed work was performed');
          }
          await adapter.work(next.engine, 'after-kill', next.environment);
          await expectHappened(next, 'after-kill');
          await expectAgreement(next, 'after work following SIGKILL');
        },
      );
    }

    check(
      'failed-start-module',
      'a start that fails in a module (before the pack started) leaves no handle open; surfaces agree',
      async () => {
        const baseline = countActiveResources();
        const built = buildWith((target) =>
          target.addModule({
            id: 'pack-lifecycle-failing-module',
            version: '1.0.0',
            start: () => {
              throw new Error('refused on purpose by the conformance suite');
            },
          }),
        );
        await expectFailedStart(built, baseline);
      },
    );

    check(
      'failed-start-pack',
      'a start that fails in a pack registered after it (after the pack started) leaves no handle open; surfaces agree',
      async () => {
        const baseline = countActiveResources();
        const built = buildWith((target) =>
          target.addLifecycleHooks({
            id: 'pack-lifecycle-failing-pack',
            started: () => {
              throw new Error('refused on purpose by the conformance suite');
            },
          }),
        );
        await expectFailedStart(built, baseline);
      },
    );

    if (!adapter.failedStartEndsProcess || adapter.embeddedHost)
      check(
        'restart-after-failed-start',
        'engine.restart() after a start that failed in a module brings the pack back: it works; surfaces agree',
        async () => {
          let attempts = 0;
          const built = buildWith(
            (target) =>
              target.addModule({
                id: 'pack-lifecycle-flaky-module',
                version: '1.0.0',
                start: () => {
                  attempts += 1;
                  if (attempts === 1) throw new Error('refused on purpose by the conformance suite');
                },
              }),
            // An operator may restart at once (the default backoff guards against a restart loop).
            { Engine: { FailurePolicy: { ManualRestartBackoff: '0s' } } },
            adapter.failedStartEndsProcess === true,
          );
          await expect(startBuilt(built)).rejects.toThrow(/refused on purpose/);
          expect(built.engine.state).toBe('Failed');
          await built.engine.restart();
          expect({ state: built.engine.state, moduleStarts: attempts }).toEqual({
            state: 'Started',
            moduleStarts: 2,
          });
          await expectAgreement(built, 'after engine.restart() following the failed start');
          await adapter.work(built.engine, 'after-failed-start', built.environment);
          await expectHappened(built, 'after-failed-start');
          await expectAgreement(built, 'after work following the restart');
        },
      );

    function buildWith(
      failure: (builder: EngineBuilder) => void,
      configuration?: Record<string, unknown>,
      embedded?: boolean,
    ): BuiltEngine {
      const built = build(false, failure, configuration, embedded);
      running.push(built);
      return built;
    }

    async function expectFailedStart(built: BuiltEngine, baseline: Record<string, number>) {
      await expect(startBuilt(built)).rejects.toThrow(/refused on purpose/);
      expect(built.engine.state).toBe('Failed');
      await expectAgreement(built, 'after the failed start');
      expect(await waitForResourcesAtMost(baseline, 5000)).toEqual({});
    }
  });
}
