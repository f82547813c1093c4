import type { DependencyHealthEntry, EngineBuilder } from '@corekit/abstractions';
import type { CoreEngine } from '@corekit/engine-core';
import type { CaptureLogger } from './capture-logger';
import { createTestEngineBuilder, type TestEngineBuilderOptions } from './test-engine-builder';

/** One refresh of every registered dependency: the engine, its log, and the first dependency's entry. */
export interface ProbeRun {
  readonly engine: CoreEngine;
  readonly logger: CaptureLogger;
  /** `engine.dependencies()[0]`: the entry of the first (often the only) configured dependency. */
  readonly entry: DependencyHealthEntry;
}

/** What `probeRunner` hands back for one probe package. */
export interface ProbeRunner<Options> {
  /** Registers `options` on a fresh isolated engine, builds it, refreshes every dependency once. */
  probeOnce(options: Options, builderOptions?: TestEngineBuilderOptions): Promise<ProbeRun>;
  /** Registers `options` on a fresh isolated engine and builds it, without refreshing. */
  engineWith(
    options: Options,
    builderOptions?: TestEngineBuilderOptions,
  ): { engine: CoreEngine; logger: CaptureLogger };
}

/**
 * The "register, build, refresh once" scaffolding every probe test needs, bound to the package's
 * `add<Kind>Health`. Name the options type (`probeRunner<RedisHealthOptions>(addRedisHealth)`): TypeScript
 * does not infer it through the generic `add*` signature. `defaults` apply to every engine (a clock, a content root); a call's own builder options
 * win over them.
 */
export function probeRunner<Options>(
  add: (builder: EngineBuilder, options?: Options) => unknown,
  defaults: TestEngineBuilderOptions = {},
): ProbeRunner<Options> {
  function engineWith(options: Options, builderOptions: TestEngineBuilderOptions = {}) {
    const { builder, logger } = createTestEngineBuilder({ ...defaults, ...builderOptions });
    add(builder, options);
    return { engine: builder.build(), logger };
  }
  async function probeOnce(options: Options, builderOptions: TestEngineBuilderOptions = {}) {
    const { engine, logger } = engineWith(options, builderOptions);
    await engine.refreshDependencies();
    const [entry] = engine.dependencies();
    if (!entry) throw new Error('probeOnce: the options registered no dependency');
    return { engine, logger, entry };
  }
  return { probeOnce, engineWith };
}
