import { engineEventIds, type Engine, type Logger, type StartFailureOptions } from '@corekit/abstractions';
import { isBuildableBuilder, resolveEngineSource, type EngineSource } from './engine-source';
import { HostShutdown, type HostLog } from './host-shutdown';
import { ShutdownParticipants, type ParticipantFailure } from './shutdown-participants';
import { SignalHandlers, type ShutdownSignal } from './signal-handlers';
import { StartFailures } from './start-failures';
import { reportStartupFailure } from './startup-error-report';
import type { WorkerHost, WorkerHostOptions } from './worker-host';

export { shutdownSignals } from './signal-handlers';
export type { ShutdownSignal } from './signal-handlers';
export type { ShutdownParticipant } from './shutdown-participants';
export type { WorkerHost, WorkerHostOptions } from './worker-host';

/**
 * Creates a worker host. Typical use:
 * `const builder = createEngineBuilder(); addMyModule(builder); await createWorkerHost(builder).run();`
 */
export function createWorkerHost(source: EngineSource, options: WorkerHostOptions = {}): WorkerHost {
  const handleSignals = options.handleSignals ?? true;
  const exitProcess = options.exitProcess ?? handleSignals;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const report = (error: unknown) =>
    reportStartupFailure(error, {
      exit,
      write: options.reportStartupError,
      environment: options.environment,
    });
  const { engine, logger } = resolveOrReport(source, options.logger, exitProcess ? report : undefined);
  const log: HostLog = (level, eventId, message, fields = {}) =>
    logger.log({ level, eventId, category: 'worker-host', message, ...fields });

  const participants = new ShutdownParticipants(participantFailureLog(log));
  const shutdown = new HostShutdown(engine, participants, log);
  const endsOnStartFailure = exitProcess && (options.exitOnStartFailure ?? true);
  const failures = new StartFailures(engine, log, endsOnStartFailure, shutdown, report);
  const signals = new SignalHandlers(handleSignals, (signal) =>
    shutDownOnSignal(signal, shutdown, log, exitProcess ? exit : undefined),
  );
  shutdown.onFinished(() => signals.remove());

  async function start(): Promise<void> {
    signals.install();
    try {
      await engine.start();
    } catch (error) {
      // The engine records its own failures; one it did not (an engine of another make) is recorded here.
      if (engine.state !== 'Failed') failures.mark('host-start', error, {});
      await failures.failed(error);
      throw error;
    }
  }

  return {
    engine,
    logger,
    start,
    async checkConfiguration() {
      try {
        engine.checkConfiguration?.();
      } catch (error) {
        if (engine.state !== 'Failed') failures.mark('configuration', error, { restartable: false });
        if (endsOnStartFailure) await failures.failed(error);
        throw error;
      }
    },
    async recordStartFailure(phase: string, error: unknown, failureOptions: StartFailureOptions = {}) {
      failures.mark(phase, error, failureOptions);
      await failures.failed(error);
    },
    endsOnStartFailure,
    async run() {
      if (handleSignals) shutdown.keepProcessAlive();
      try {
        await start();
      } catch {
        shutdown.finish(1);
      }
      return shutdown.stopped;
    },
    stop: (reason) => shutdown.stop(reason),
    stopped: shutdown.stopped,
    addShutdownParticipant: (participant) => participants.add(participant),
  };
}

/**
 * The engine of `source`. A failed build (configuration, registrations) leaves no engine and nothing to serve,
 * so a host that owns the process (`report` given) ends it with the readable report; passing no engine at all is
 * a programming error: it throws.
 */
function resolveOrReport(
  source: EngineSource,
  logger: Logger | undefined,
  report: ((error: unknown) => void) | undefined,
): { engine: Engine; logger: Logger } {
  try {
    return resolveEngineSource(source, logger);
  } catch (error) {
    if (report && isBuildableBuilder(source)) report(error);
    throw error;
  }
}

/** A participant that fails to drain or close is logged; the shutdown goes on. */
function participantFailureLog(log: HostLog): ParticipantFailure {
  return (participant, step, error) =>
    log(
      'error',
      step === 'drain' ? engineEventIds.runtimeStopping : engineEventIds.runtimeStopped,
      `${participant.name} failed to ${step}: ${(error as Error)?.message ?? error}`,
    );
}

/** The first signal stops gracefully (then exits with the code when the host owns the process); a second cuts the drain. */
function shutDownOnSignal(
  signal: ShutdownSignal,
  shutdown: HostShutdown,
  log: HostLog,
  exit: ((code: number) => void) | undefined,
): void {
  if (shutdown.isStopping) {
    log(
      'warn',
      engineEventIds.runtimeStopping,
      `${signal} received again: cutting the remaining in-flight work`,
      {
        signal,
      },
    );
    shutdown.cutDrain();
    return;
  }
  log('info', engineEventIds.runtimeStopping, `${signal} received: shutting down gracefully`, { signal });
  void shutdown.stop(signal).then((code) => exit?.(code));
}
