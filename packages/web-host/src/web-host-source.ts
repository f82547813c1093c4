import { CoreError } from '@corekit/abstractions';
import { isBuildableBuilder, isEngine, type EngineSource, type WorkerHost } from '@corekit/worker-host';
import type { WebHostOptions } from './web-host-options';

/** True for a worker host (as opposed to a builder, an engine or an options object). */
export function isWorkerHost(value: unknown): value is WorkerHost {
  return (
    typeof value === 'object' &&
    value !== null &&
    'engine' in value &&
    typeof (value as WorkerHost).addShutdownParticipant === 'function'
  );
}

/** Accepts `createWebHost(source, options)` and `createWebHost({ builder | engine | workerHost, ...options })`. */
export function webHostArguments(
  first: EngineSource | WorkerHost | WebHostOptions,
  second: WebHostOptions,
): { options: WebHostOptions; source: EngineSource | WorkerHost } {
  if (isWorkerHost(first) || isEngine(first) || isBuildableBuilder(first))
    return { options: second, source: first };
  const options = { ...first, ...second };
  const source = options.workerHost ?? options.engine ?? options.builder;
  if (!source) {
    throw new CoreError(
      'HOST_ENGINE_MISSING',
      'createWebHost needs an engine: pass the builder from createEngineBuilder(), a built engine, or a worker host',
    );
  }
  return { options, source };
}

/** The `PORT` environment variable as a port number, undefined when unset; invalid values fail. */
export function portFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
): number | undefined {
  const raw = environment.PORT;
  if (raw === undefined || raw.trim() === '') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CoreError(
      'CONFIGURATION_INVALID',
      `PORT must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`,
    );
  }
  return port;
}
