import type { Engine, Logger, StartFailureOptions } from '@corekit/abstractions';
import type { ShutdownParticipant } from './shutdown-participants';

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
