import { CoreError, type Engine, type EngineBuilder, type Logger } from '@corekit/abstractions';
import { createJsonLogger } from '@corekit/engine-core';
import { addRestPublication } from '@corekit/rest-publication';

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

/** True for a full engine builder (`createEngineBuilder()`), which the host may still register packs on. */
function isEngineBuilder(value: BuildableEngineBuilder): value is BuildableEngineBuilder & EngineBuilder {
  return typeof (value as Partial<EngineBuilder>).addCatalog === 'function';
}

/**
 * Builds the engine when given a builder (after registering REST publication on it, `addRestPublication`, a
 * no-op when the application already did: every host publishes its modules' REST declarations) and picks the logger the host writes to: the one passed in, else the
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
    if (isEngineBuilder(source)) addRestPublication(source);
    return { engine: source.build(), logger: logger ?? source.logger };
  }
  throw new CoreError(
    'HOST_ENGINE_MISSING',
    'A host needs an engine: pass the builder from createEngineBuilder() (the host builds it) or an engine built with builder.build()',
  );
}
