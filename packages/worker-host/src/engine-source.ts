import { CoreError, type Engine, type Logger } from '@corekit/abstractions';
import { createJsonLogger } from '@corekit/engine-core';

/** A builder that has not been built yet: `createEngineBuilder()` after its `add*` calls. */
export interface BuildableEngineBuilder {
  readonly logger: Logger;
  build(): Engine;
}

/** What a host accepts: a builder (the host builds it) or an engine that is already built. */
export type EngineSource = BuildableEngineBuilder | Engine;

/** True for a built engine (as opposed to a builder). */
export function isEngine(value: unknown): value is Engine {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Engine).readiness === 'function' &&
    typeof (value as Engine).beginShutdown === 'function'
  );
}

/** True for a builder with a `build()` method. */
export function isBuildableBuilder(value: unknown): value is BuildableEngineBuilder {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BuildableEngineBuilder).build === 'function'
  );
}

/**
 * Builds the engine when given a builder and picks the logger the host writes to: the one passed in, else the
 * builder's or engine's (so host records are redacted like the engine's), else JSON lines on stdout.
 */
export function resolveEngineSource(
  source: EngineSource,
  logger?: Logger,
): { engine: Engine; logger: Logger } {
  if (isEngine(source)) {
    const engineLogger = (source as Engine & { logger?: Logger }).logger;
    return { engine: source, logger: logger ?? engineLogger ?? createJsonLogger() };
  }
  if (isBuildableBuilder(source)) {
    return { engine: source.build(), logger: logger ?? source.logger };
  }
  throw new CoreError(
    'HOST_ENGINE_MISSING',
    'A host needs an engine: pass the builder from createEngineBuilder() (the host builds it) or an engine built with builder.build()',
  );
}
