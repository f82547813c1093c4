import {
  engineEventIds,
  errorCode,
  type Engine,
  type Logger,
  type StartFailureOptions,
} from '@corekit/abstractions';
import { isBuildableBuilder, resolveEngineSource, type EngineSource } from './engine-source';
import { reportStartupFailure } from './startup-error-report';

/** The signals a host turns into a graceful shutdown. */
export const shutdownSignals = ['SIGTERM', 'SIGINT'] as const;
export type ShutdownSignal = (typeof shutdownSignals)[number];

/**
 * Something that takes work while the engine runs and must let it finish before the engine stops (the web
 * host's HTTP server is one). Participants are drained in registration order once `engine.beginShutdown()`
 * resolved (the packs' stopping hooks have run), and closed in reverse order after `engine.stop()`, also after a
 * failed start that ends the process.
 */
export interface ShutdownParticipant {
  /** Shown in logs. */
  readonly name: string;
  /**
   * Called first, as the shutdown begins (before the packs' stopping hooks run): stop taking new work at once;
   * what is in flight goes on until `drain`.
   */
  refuse?(): void;
  /**
   * Stop taking new work and resolve once in-flight work has finished. `signal` aborts when the drain must end
   * now (a second shutdown signal, or the participant's own deadline): cut what is left and resolve.
   */
  drain(signal: AbortSignal): Promise<void>;
  /** Called after `engine.stop()`: release what is still open. */
  close?(): Promise<void>;
}

/** Options of createWorkerHost. */
export interface WorkerHostOptions {
  /**
   * Turn SIGTERM and SIGINT into a graceful shutdown while the host runs. Default true. A second signal during
   * the drain cuts the remaining in-flight work.
   */
  readonly handleSignals?: boolean;
  /**
   * End the process when the host ends: exit code 0 after a clean stop, 1 when stopping failed or (with
   * `exitOnStartFailure`) when the engine failed to start. Default: the value of `handleSignals`.
   */
  readonly exitProcess?: boolean;
  /**
   * With `exitProcess`, a failed engine start (an unknown configuration key included) ends the process with exit
   * code 1: the host first releases what the start opened (`engine.stop()` closes the stores, every shutdown
   * participant closes: the web host's listener and transport ports), then writes the startup report on stderr.
   * Default true. A failed build (invalid configuration, a registration error) always ends the process when
   * `exitProcess` is on: there is no engine to keep running.
   */
  readonly exitOnStartFailure?: boolean;
  /** Where host records go. Default: the builder's (or engine's) logger, so secrets are redacted. */
  readonly logger?: Logger;
  /** Replaces `process.exit` (tests). */
  readonly exit?: (code: number) => void;
  /**
   * Where the startup report goes (one block: code, each problem with its key path, what to do; see
   * formatStartupError) when a failed build or start ends the process. Default process.stderr.
   */
  readonly reportStartupError?: (text: string) => void;
  /** Read for `COREKIT_DEBUG` (stack traces in the startup report). Default process.env. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
}

/** A headless host: the engine, signal handling and exit codes, no HTTP. */
export interface WorkerHost {
  readonly engine: Engine;
  readonly logger: Logger;
  /**
   * Starts the engine and installs the signal handlers. Rejects with the engine's error when start fails (after
   * ending the process when `endsOnStartFailure`).
   */
  start(): Promise<void>;
  /**
   * Checks the configuration now (`engine.checkConfiguration()`: every key under `Engine:` must be known), for a
   * host that opens ports before it starts the engine. A failure goes the way of a failed start: logged, and
   * when `endsOnStartFailure`, resources released, the report on stderr and exit code 1; then it rejects.
   */
  checkConfiguration(): Promise<void>;
  /**
   * A start failure the host found itself (a listener that cannot bind, its own configuration section refused):
   * `engine.recordStartFailure(phase, error, options)` (the engine turns Failed with `lastFailure` and a story
   * entry), then the way of a failed start: logged, and when `endsOnStartFailure`, resources released, the report
   * on stderr and exit code 1. Resolves once that is done; the caller then throws or serves the failure.
   */
  recordStartFailure(phase: string, error: unknown, options?: StartFailureOptions): Promise<void>;
  /** True when a failed start ends the process (`exitProcess` and `exitOnStartFailure`). */
  readonly endsOnStartFailure: boolean;
  /**
   * Starts the engine and resolves with the exit code once the host has stopped (0 clean, 1 failed). Keeps
   * the process alive until then, even when nothing else holds the event loop.
   */
  run(): Promise<number>;
  /**
   * Graceful shutdown: `await engine.beginShutdown()` (readiness Unhealthy at once, the packs' stopping hooks
   * awaited), drain every participant, `engine.stop()` (jobs, modules, stores), close participants. Idempotent;
   * resolves with the exit code: 0 after a clean stop, 1 when the engine failed to stop or had failed to start
   * (state Failed when the stop began).
   */
  stop(reason?: string): Promise<number>;
  /** Registers work that must drain before the engine stops; returns the function that removes it. */
  addShutdownParticipant(participant: ShutdownParticipant): () => void;
  /** Resolves with the exit code once the host has stopped (never rejects). */
  readonly stopped: Promise<number>;
}

/**
 * Creates a worker host. Typical use:
 * `const builder = createEngineBuilder(); addMyModule(builder); await createWorkerHost(builder).run();`
 */
export function createWorkerHost(source: EngineSource, options: WorkerHostOptions = {}): WorkerHost {
  const handleSignals = options.handleSignals ?? true;
  const exitProcess = options.exitProcess ?? handleSignals;
  const exitOnStartFailure = options.exitOnStartFailure ?? true;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const report = (error: unknown) =>
    reportStartupFailure(error, {
      exit,
      write: options.reportStartupError,
      environment: options.environment,
    });
  let resolved: ReturnType<typeof resolveEngineSource>;
  try {
    resolved = resolveEngineSource(source, options.logger);
  } catch (error) {
    // The build failed (configuration, registrations): no engine, nothing to serve, so a host that owns the
    // process ends it with the readable report. Passing no engine at all is a programming error: it throws.
    if (exitProcess && isBuildableBuilder(source)) report(error);
    throw error;
  }
  const { engine, logger } = resolved;
  const participants: ShutdownParticipant[] = [];
  const forceDrain = new AbortController();
  let stopping: Promise<number> | undefined;
  let resolveStopped!: (code: number) => void;
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));
  let keepAlive: NodeJS.Timeout | undefined;

  const log = (
    level: 'info' | 'warn' | 'error',
    eventId: number,
    message: string,
    fields: Record<string, unknown> = {},
  ) => logger.log({ level, eventId, category: 'worker-host', message, ...fields });

  const onSignal = (signal: ShutdownSignal) => {
    if (stopping) {
      log(
        'warn',
        engineEventIds.runtimeStopping,
        `${signal} received again: cutting the remaining in-flight work`,
        { signal },
      );
      forceDrain.abort();
      return;
    }
    log('info', engineEventIds.runtimeStopping, `${signal} received: shutting down gracefully`, { signal });
    void stop(signal).then((code) => {
      if (exitProcess) exit(code);
    });
  };
  const signalHandlers = new Map<ShutdownSignal, () => void>();

  function installSignals(): void {
    if (!handleSignals || signalHandlers.size > 0) return;
    for (const signal of shutdownSignals) {
      const handler = () => onSignal(signal);
      signalHandlers.set(signal, handler);
      process.on(signal, handler);
    }
  }

  function removeSignals(): void {
    for (const [signal, handler] of signalHandlers) process.off(signal, handler);
    signalHandlers.clear();
  }

  const endsOnStartFailure = exitProcess && exitOnStartFailure;

  async function start(): Promise<void> {
    installSignals();
    try {
      await engine.start();
    } catch (error) {
      // The engine records its own failures; one it did not (an engine of another make) is recorded here.
      if (engine.state !== 'Failed') markFailed('host-start', error, {});
      await startFailed(error);
      throw error;
    }
  }

  async function checkConfiguration(): Promise<void> {
    try {
      engine.checkConfiguration?.();
    } catch (error) {
      if (engine.state !== 'Failed') markFailed('configuration', error, { restartable: false });
      if (endsOnStartFailure) await startFailed(error);
      throw error;
    }
  }

  async function recordStartFailure(
    phase: string,
    error: unknown,
    failureOptions: StartFailureOptions = {},
  ): Promise<void> {
    markFailed(phase, error, failureOptions);
    await startFailed(error);
  }

  /** `engine.recordStartFailure`, logged instead of thrown when the engine is past the point of recording. */
  function markFailed(phase: string, error: unknown, failureOptions: StartFailureOptions): void {
    try {
      engine.recordStartFailure(phase, error, failureOptions);
    } catch (refused) {
      log(
        'warn',
        engineEventIds.runtimeStartFailed,
        `The start failure (${phase}) was not recorded: ${(refused as Error)?.message ?? refused}`,
      );
    }
  }

  /** Logs a failed start; when it ends the process: releases what the start opened, reports, exits 1. */
  async function startFailed(error: unknown): Promise<void> {
    log(
      'error',
      engineEventIds.runtimeStartFailed,
      `The engine failed to start: ${(error as Error)?.message ?? error}`,
      {
        errorCode: errorCode(error),
      },
    );
    if (!endsOnStartFailure) return;
    await release();
    finish(1);
    report(error);
  }

  /** After a failed start: the engine stops (it closes the stores), then every participant closes. */
  async function release(): Promise<void> {
    try {
      await engine.stop();
    } catch (error) {
      log(
        'error',
        engineEventIds.runtimeStopped,
        `The engine failed to stop: ${(error as Error)?.message ?? error}`,
      );
    }
    await closeParticipants();
  }

  async function closeParticipants(): Promise<void> {
    for (const participant of [...participants].reverse()) {
      try {
        await participant.close?.();
      } catch (error) {
        log(
          'error',
          engineEventIds.runtimeStopped,
          `${participant.name} failed to close: ${(error as Error)?.message ?? error}`,
        );
      }
    }
  }

  function finish(code: number): void {
    removeSignals();
    if (keepAlive) clearInterval(keepAlive);
    keepAlive = undefined;
    resolveStopped(code);
  }

  function stop(reason = 'stop requested'): Promise<number> {
    stopping ??= (async () => {
      // A host whose engine failed to start did not do its work: the stop that ends it reports failure.
      let code = engine.state === 'Failed' ? 1 : 0;
      // Stopping at once, no new work anywhere, then the packs' stopping hooks (awaited, bounded by
      // Engine:Shutdown:StoppingHooksTimeout).
      const hooks = engine.beginShutdown();
      for (const participant of participants) participant.refuse?.();
      await hooks;
      for (const participant of [...participants]) {
        try {
          await participant.drain(forceDrain.signal);
        } catch (error) {
          log(
            'error',
            engineEventIds.runtimeStopping,
            `${participant.name} failed to drain: ${(error as Error)?.message ?? error}`,
          );
        }
      }
      try {
        await engine.stop();
      } catch (error) {
        code = 1;
        log(
          'error',
          engineEventIds.runtimeStopped,
          `The engine failed to stop: ${(error as Error)?.message ?? error}`,
          {
            errorCode: errorCode(error),
          },
        );
      }
      await closeParticipants();
      log('info', engineEventIds.runtimeStopped, `Host stopped (${reason}), exit code ${code}`, {
        reason,
        exitCode: code,
      });
      finish(code);
      return code;
    })();
    return stopping;
  }

  async function run(): Promise<number> {
    if (handleSignals) keepAlive ??= setInterval(() => undefined, 1 << 30);
    try {
      await start();
    } catch {
      finish(1);
      return stopped;
    }
    return stopped;
  }

  return {
    engine,
    logger,
    start,
    checkConfiguration,
    recordStartFailure,
    endsOnStartFailure,
    run,
    stop,
    stopped,
    addShutdownParticipant(participant) {
      participants.push(participant);
      return () => {
        const index = participants.indexOf(participant);
        if (index >= 0) participants.splice(index, 1);
      };
    },
  };
}
